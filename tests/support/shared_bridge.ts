import { join } from "node:path";
import { type AgentKey, atomicWrite, decodeKey } from "../../core/base/mod.ts";
import { openEndpoint } from "../../connections/mod.ts";
import { runJson } from "./run_cli.ts";
import { type TempHome, tempHome } from "./temp_home.ts";

/** What the tests read of `lnk agent status --json`. */
export type Status = {
  id: string;
  name: string;
  state: string;
  bridge: string;
  ports: { endpoint: number };
  services: { agent: { running: boolean; pid?: number }; bridge: { running: boolean; pid?: number } };
  reason?: string;
};

/** A temporary home whose machine.toml says `shared_bridge = true`. */
export async function sharedHome(): Promise<TempHome> {
  const home = await tempHome();
  await Deno.mkdir(home.paths.lnk, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(home.paths.machineToml, "shared_bridge = true\n", { mode: 0o600 });
  return home;
}

/** Creates an agent on the mini harness, with `[run] idle_after` and `time_zone` as given. */
export async function createAgent(
  home: TempHome,
  name: string,
  run: { idleAfter?: string; zone?: string } = {},
): Promise<{ id: string; specPath: string }> {
  const created = await runJson<{ id: string; folders: { config: string } }>(
    ["agent", "create", name, "--harness", "mini"],
    home,
  );
  const specPath = join(created.folders.config, "spec.toml");
  await setRun(specPath, run);
  return { id: created.id, specPath };
}

/** Rewrites the spec's `[run]` keys, as an editor saving it does (a new file renamed over it). */
export async function setRun(specPath: string, run: { idleAfter?: string; zone?: string }): Promise<void> {
  const text = (await Deno.readTextFile(specPath)).replace(/^time_zone = .*\n/m, "");
  const line = `idle_after = "${run.idleAfter ?? "5m"}"\n${run.zone ? `time_zone = "${run.zone}"\n` : ""}`;
  await atomicWrite(specPath, text.replace(/^idle_after = .*\n/m, line));
}

/** The shared bridge's log under the detached backend (its runners write there too). */
export function bridgesLog(home: TempHome): string {
  return join(home.paths.run, "lnk-bridges.log");
}

/** Waiting on a service's log, as the idle tests do. */
export { type LogEntry, waitForLog } from "./service_log.ts";

/** The agent's bound key. */
export async function keyOf(home: TempHome, id: string): Promise<AgentKey> {
  return decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
}

/** Sends one prompt to the agent's door as `lnk agent chat send` does; resolves with the answer. */
export async function prompt(
  home: TempHome,
  agent: { id: string; port: number },
  text: string,
): Promise<string> {
  const key = await keyOf(home, agent.id);
  await using endpoint = await openEndpoint({ port: agent.port }, { agentId: agent.id, agentName: "x", key });
  const chunks: string[] = [];
  await endpoint.call(
    "session/prompt",
    { sessionId: "link:main", prompt: [{ type: "text", text }] },
    (u) => chunks.push(String((u.content as { text: string }).text)),
  );
  return chunks.join("");
}

/** The command line of a live process, its arguments joined by spaces. */
export async function commandOf(pid: number): Promise<string> {
  return (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean).join(" ");
}
