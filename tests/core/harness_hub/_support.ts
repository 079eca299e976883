import { join } from "node:path";
import { type AgentKey, newAgentKey } from "../../../core/base/mod.ts";
import { openEndpoint, serveEndpoint, type SessionUpdate } from "../../../connections/mod.ts";
import { Hub, type HubOptions } from "../../../core/adapters/hub/mod.ts";

/** The tiny stdio ACP agent the hub's tests run, as a command. */
export const TINY_AGENT = [
  Deno.execPath(),
  "run",
  "-A",
  new URL("./_acp_agent_child.ts", import.meta.url).pathname,
];

/** A hub running in this process, and how to message it. */
export interface TestHub extends AsyncDisposable {
  readonly agent: { id: string; name: string; key: AgentKey };
  readonly socket: string;
  readonly dir: string;
  readonly hub: Hub;
  ask(text: string, thread?: string, key?: AgentKey): Promise<string>;
}

/** A hub in this process on a socket of a temp dir, running the tiny agent (or the command given). */
export async function startHub(options: Partial<Pick<HubOptions, "quietTimeoutMs" | "startTimeoutMs">> & {
  env?: Record<string, string>;
  command?: string[];
} = {}): Promise<TestHub> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-hub-" });
  const agent = { id: "hubagent1", name: "q", key: newAgentKey() };
  const hub = new Hub({
    agent,
    command: {
      command: options.command ?? TINY_AGENT,
      env: { ACP_SESSIONS: join(dir, "agent_sessions.json"), ...options.env },
      cwd: dir,
    },
    sessionsFile: join(dir, "hub_sessions.json"),
    quietTimeoutMs: options.quietTimeoutMs,
    startTimeoutMs: options.startTimeoutMs,
  });
  const socket = join(dir, "endpoint.sock");
  const controller = new AbortController();
  const server = await serveEndpoint({ path: socket, signal: controller.signal }, hub.handler);
  return {
    agent,
    socket,
    dir,
    hub,
    /** One message on a thread as a bridge sends it: its streamed text, or the error thrown. */
    ask: (text: string, thread = "link:main", key: AgentKey = agent.key) =>
      ask(socket, agent, key, text, thread),
    async [Symbol.asyncDispose]() {
      controller.abort();
      await server.finished;
      await hub[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function ask(
  path: string,
  agent: { id: string; name: string },
  key: AgentKey,
  text: string,
  thread: string,
): Promise<string> {
  await using endpoint = await openEndpoint({ path }, { agentId: agent.id, agentName: agent.name, key });
  const meta = { "link.local/thread": thread };
  const made = await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  let said = "";
  const onUpdate = (u: SessionUpdate) => {
    const content = u.content as { text?: string } | undefined;
    if (u.sessionUpdate === "agent_message_chunk") said += content?.text ?? "";
  };
  await endpoint.call("session/prompt", {
    sessionId: made.result?.sessionId,
    prompt: [{ type: "text", text }],
    _meta: meta,
  }, onUpdate);
  return said;
}
