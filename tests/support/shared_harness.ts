/**
 * What the shared harness's tests and bench share: agents on a hosted model (reached only through
 * each one's own proxy, which a test points at the loopback fake standing in for the provider),
 * started as their bridges start them, in this process, with `shared_harness = true` in machine.toml.
 */
import { join } from "node:path";
import { agentContext, bindKey, layoutOf, loadSettings } from "../../core/agent/mod.ts";
import { prepareAgentLaunch } from "../../core/agent/launch/agent_launch.ts";
import type { HarnessProcess } from "../../core/agent/launch/harness_process.ts";
import type { ToolProxySeat } from "../../core/agent/launch/tool_proxy_seat.ts";
import type { ProxyUpstream } from "../../sandbox/mod.ts";
import type { FakeModel } from "../fakes/fake_model.ts";
import { runJson } from "./run_cli.ts";
import type { TempHome } from "./temp_home.ts";
import { askEndpoint, type TestAgent, toolResult } from "./sandboxed_agent.ts";

export const REAL_KEY = "sk-real-0123456789abcdef";
const OPENAI_ADDRESS = "104.18.7.192";

/** A home whose machine.toml turns the shared harness on, with the hosted model's key set. */
export async function sharingHome(home: TempHome): Promise<void> {
  await Deno.mkdir(home.paths.lnk, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(home.paths.machineToml, "shared_harness = true\n", { mode: 0o600 });
  home.env.set("OPENAI_API_KEY", REAL_KEY);
}

/** An agent on a hosted model, of `owner` when given (its settings.toml edited as a sign-in would). */
export async function hostedAgent(home: TempHome, name: string, owner?: string): Promise<TestAgent> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", name, "--model", "openai/gpt-4.1-nano"],
    home,
  );
  if (owner) {
    const file = join(home.paths.agentState(id), "settings.toml");
    const text = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, text.replace(/^owner = ".*"$/m, `owner = "${owner}"`));
  }
  const settings = await loadSettings(home.paths, id);
  return { id, name: settings.name, layout: layoutOf(home.paths, settings) };
}

/** Where each agent's proxy dialled the provider: the agent's ID, once a request. */
export type Dialled = string[];

/** Starts the agent as its bridge does (a new key bound), its proxy dialling the fake; records whose proxy dialled. */
export async function launch(
  home: TempHome,
  agent: TestAgent,
  model: FakeModel,
  dialled: Dialled,
  toolProxy?: ToolProxySeat,
): Promise<HarnessProcess> {
  return await (await prepare(home, agent, model, dialled, toolProxy))();
}

/** Prepares the agent's start once, as its bridge does while it sleeps; each call of what it returns is one wake. */
export async function prepare(
  home: TempHome,
  agent: TestAgent,
  model: FakeModel,
  dialled: Dialled,
  toolProxy?: ToolProxySeat,
): Promise<() => Promise<HarnessProcess>> {
  const ctx = agentContext(home.env);
  const settings = await loadSettings(home.paths, agent.id);
  const prepared = await prepareAgentLaunch(ctx, settings, {
    modelCandidates: [],
    upstream: upstream(agent, model, dialled),
    toolProxy,
  });
  return async () => {
    const key = await bindKey(home.paths, agent.id);
    return await prepared.launch(key, { socket: join(home.paths.net(agent.id), "endpoint.sock") });
  };
}

function upstream(agent: TestAgent, model: FakeModel, dialled: Dialled): ProxyUpstream {
  return {
    resolve: (name) => Promise.resolve(name === "api.openai.com" ? [OPENAI_ADDRESS] : []),
    dial: () => {
      dialled.push(agent.id);
      return Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(model.url).port) });
    },
    startTls: (conn) => Promise.resolve(conn),
    localNetworks: [],
    machineNames: [],
  };
}

/**
 * Has the agent's model call `run` with `sh -c <script>` (the fake answers the call, then "ran")
 * and returns the tool's result as the model was sent it.
 */
export async function runOn(
  home: TempHome,
  agent: TestAgent,
  model: FakeModel,
  script: string,
): Promise<string> {
  model.replyToolCall("run", { command: ["sh", "-c", script] });
  model.reply("ran");
  const answer = await askEndpoint(home, agent, "run it");
  if (answer !== "ran") throw new Error(`The agent answered "${answer}", not the fake's "ran"`);
  await model.nextRequest();
  return toolResult(await model.nextRequest());
}

/** The folders a process's mount namespace shows (its mountinfo's mount points). */
export async function mountPoints(pid: number): Promise<string[]> {
  const text = await Deno.readTextFile(`/proc/${pid}/mountinfo`);
  return text.split("\n").filter(Boolean).map((line) => line.split(" ")[4]!);
}

/** The PIDs of a process's children, and theirs. */
export async function descendants(pid: number): Promise<number[]> {
  const found: number[] = [];
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`).catch(() => "");
    for (const child of text.split(" ").filter(Boolean).map(Number)) {
      found.push(child, ...await descendants(child));
    }
  }
  return found;
}
