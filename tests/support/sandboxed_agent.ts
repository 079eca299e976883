/**
 * What the tests of a sandboxed agent share: agents started by `lnk agent start` in real bubblewrap
 * (ignored, with the reason printed, where it cannot run), their service log, and what the
 * harness's run tool printed inside, read back from the model's next request.
 */
import { join } from "node:path";
import { type AgentLayout, layoutOf, loadSettings } from "../../core/agent/mod.ts";
import { readKey } from "../../core/agent/mod.ts";
import { openEndpoint } from "../../connections/mod.ts";
import type { FakeModel, FakeModelRequest } from "../fakes/fake_model.ts";
import { runJson } from "./run_cli.ts";
import type { TempHome } from "./temp_home.ts";
import { NO_BWRAP } from "./sandbox.ts";
import { logEntries, type LogEntry, serviceLog } from "./service_log.ts";

/** A test needing a real sandbox: ignored, never passed, where bubblewrap cannot run. */
export function sandboxedTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: NO_BWRAP !== undefined, fn });
}

/** An agent made by `lnk agent create`, calling the fake model at its loopback URL. */
export interface TestAgent {
  readonly id: string;
  readonly name: string;
  readonly layout: AgentLayout;
}

/** Creates an agent on `harness` (Link Harness unless told) whose model is the fake. */
export async function createAgent(home: TempHome, model: FakeModel, harness = "link"): Promise<TestAgent> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "--harness", harness, "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  return { id, name: settings.name, layout: layoutOf(home.paths, settings) };
}

/** One JSON line of a service's log. */
export type { LogEntry } from "./service_log.ts";

/** The log lines so far of the agent's bridge, which runs its harness (the detached backend's log file). */
export function agentLog(home: TempHome, id: string): Promise<LogEntry[]> {
  return logEntries(serviceLog(home, "bridge", id), () => true);
}

/** The fields of the bridge's "Agent started" lines that say how the harness runs. */
export async function howStarted(home: TempHome, id: string): Promise<LogEntry[]> {
  return (await agentLog(home, id))
    .filter((e) => e.msg === "Agent started")
    .map((e) => ({ harness: e.harness, sandboxed: e.sandboxed, proxied: e.proxied }));
}

/** The content of the last tool result the model was sent in a request. */
export function toolResult(request: FakeModelRequest): string {
  const body = request.body as { messages: { role: string; content: string }[] };
  const tool = body.messages.filter((m) => m.role === "tool").at(-1);
  if (!tool) throw new Error("The request holds no tool result");
  return tool.content;
}

/** The stdout section of a run tool's result. */
export function runStdout(result: string): string {
  const at = result.indexOf("--- stdout ---\n");
  if (at < 0) return "";
  const rest = result.slice(at + "--- stdout ---\n".length);
  const end = rest.indexOf("\n--- stderr ---");
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * Sends one message to the running agent's endpoint socket as a bridge does (proofs both ways,
 * session/new, session/prompt) and returns the streamed text.
 */
export async function askEndpoint(home: TempHome, agent: TestAgent, text: string): Promise<string> {
  const key = await readKey(home.paths, agent.id);
  if (!key) throw new Error("The agent has no key bound");
  const path = join(home.paths.net(agent.id), "endpoint.sock");
  await using endpoint = await openEndpoint({ path }, { agentId: agent.id, agentName: agent.name, key });
  const meta = { "link.local/thread": "link:main" };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  let streamed = "";
  await endpoint.call(
    "session/prompt",
    { sessionId: "link:main", prompt: [{ type: "text", text }], _meta: meta },
    (u) => {
      if (u.sessionUpdate === "agent_message_chunk") streamed += (u.content as { text: string }).text;
    },
  );
  return streamed;
}
