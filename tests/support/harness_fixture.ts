import { join } from "node:path";
import { type AgentKey, type Clock, newAgentKey, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import {
  type AskResult,
  openEndpoint,
  type ProvenEndpoint,
  type SessionUpdate,
} from "../../connections/mod.ts";
import {
  DEFAULT_TURNS,
  type HarnessServer,
  KeptAnswers,
  keptDir,
  NO_TOOLS,
  serveHarness,
  type TurnAgent,
  type TurnSettings,
  type TurnTools,
} from "../../core/harness/mod.ts";
import { filesStore, type OpenStore, type StoredEvent } from "../../core/harness/store/mod.ts";
import { builtinTools } from "../../core/harness/tools/mod.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../../sandbox/mod.ts";
import { harnessTurnTools } from "../../core/harness/mod.ts";
import type { FakeModel } from "../fakes/fake_model.ts";

/** One agent of a fixture: its folders and its turns' settings. */
export interface FixtureAgentOptions {
  id?: string;
  owner?: string;
  name?: string;
  turns?: Partial<TurnSettings>;
  /** The harness's own tools over the agent's folders, with the default grants, unless "none" or given. */
  tools?: TurnTools | "none";
  contextTokens?: number;
  /** The folder the agent's `Agent/` and `Home/` go in; a new one unless given. */
  dir?: string;
  /** Wraps the agent's files store (to hold a call's timing). */
  wrapStore?: (store: OpenStore) => OpenStore;
  /** Runs before the harness starts: leaves a conversation as a crashed process would. */
  prepare?: (agent: TurnAgent) => Promise<void>;
}

/** An in-process Link Harness on a unix socket, over the files store and a fake model. */
export interface HarnessFixture extends AsyncDisposable {
  readonly dir: string;
  readonly socket: string;
  readonly agents: TurnAgent[];
  readonly keys: AgentKey[];
  readonly server: HarnessServer;
  /** Opens a proven connection as a bridge would, for the agent at `index`. */
  open(index?: number): Promise<ProvenEndpoint>;
  /** The events of a conversation, as stored. */
  events(conversation?: string, index?: number): Promise<StoredEvent[]>;
}

/** A TurnAgent over the files store in `dir`, calling the fake model. */
export function fixtureAgent(
  model: FakeModel,
  dir: string,
  options: FixtureAgentOptions & { clock?: Clock } = {},
): TurnAgent & { store: OpenStore } {
  const agentDir = join(options.dir ?? dir, "Agent");
  const home = join(options.dir ?? dir, "Home");
  Deno.mkdirSync(home, { recursive: true });
  const files = filesStore(join(agentDir, "chats"));
  const store = options.wrapStore ? options.wrapStore(files) : files;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const grants = parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml");
  const ownTools = () =>
    harnessTurnTools(builtinTools({ grants }), {
      agentId: options.id ?? "a1b2c3d4",
      owner: options.owner ?? "local-test",
      folders: {
        home,
        instructions: join(agentDir, "instructions"),
        skills: join(agentDir, "skills"),
        memory: join(agentDir, "memory"),
        chats: join(agentDir, "chats"),
      },
      grants,
      clock,
    }, store);
  return {
    id: options.id ?? "a1b2c3d4",
    owner: options.owner ?? "local-test",
    name: options.name ?? "main",
    store,
    kept: new KeptAnswers(keptDir(agentDir)),
    model: { baseUrl: model.url, model: "fake-model" },
    tools: options.tools === "none" ? NO_TOOLS : options.tools ?? ownTools(),
    system: "You are a test agent.",
    turns: { ...DEFAULT_TURNS, ...options.turns },
    contextTokens: options.contextTokens ?? 8000,
    clock,
  };
}

/** Starts Link Harness in this process for one agent (or several), answering on a socket. */
export async function harnessFixture(
  model: FakeModel,
  options: { agents?: FixtureAgentOptions[]; clock?: Clock } = {},
): Promise<HarnessFixture> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-harness-" });
  const socket = join(dir, "endpoint.sock");
  const agents = (options.agents ?? [{}]).map((a, i) =>
    fixtureAgent(model, a.dir ?? join(dir, `agent${i}`), { ...a, clock: options.clock })
  );
  for (const [i, a] of (options.agents ?? []).entries()) await a.prepare?.(agents[i]!);
  const keys = agents.map(() => newAgentKey());
  const server = await serveHarness({ agents: agents.map((agent, i) => ({ agent, key: keys[i]! })), socket });
  return {
    dir,
    socket,
    agents,
    keys,
    server,
    open: (index = 0) =>
      openEndpoint({ path: socket }, {
        agentId: agents[index]!.id,
        agentName: agents[index]!.name,
        key: keys[index]!,
      }),
    events: (conversation = "link:main", index = 0) => agents[index]!.store.read(conversation),
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** What a prompt gave: the streamed text, the tool updates, and how it ended. */
export interface Prompted {
  text: string;
  updates: SessionUpdate[];
  result: AskResult | { kind: "error"; error: unknown };
  stopReason?: string;
  meta?: Record<string, unknown>;
}

/** Sends one message on a thread as a bridge does: session/new, then session/prompt. */
export async function prompt(
  endpoint: ProvenEndpoint,
  text: string,
  options: { thread?: string; onUpdate?: (u: SessionUpdate) => void; meta?: Record<string, unknown> } = {},
): Promise<Prompted> {
  const thread = options.thread ?? "link:main";
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: { "link.local/thread": thread } });
  const updates: SessionUpdate[] = [];
  let streamed = "";
  try {
    const res = await endpoint.call(
      "session/prompt",
      {
        sessionId: thread,
        prompt: [{ type: "text", text }],
        _meta: { "link.local/thread": thread, ...options.meta },
      },
      (u) => {
        updates.push(u);
        if (u.sessionUpdate === "agent_message_chunk") streamed += (u.content as { text: string }).text;
        options.onUpdate?.(u);
      },
    );
    if (res.steered) return { text: streamed, updates, result: { kind: "steered" } };
    const result = res.result ?? {};
    return {
      text: streamed,
      updates,
      result: { kind: "answered", text: streamed, stopReason: String(result.stopReason) },
      stopReason: String(result.stopReason),
      meta: result._meta as Record<string, unknown> | undefined,
    };
  } catch (error) {
    return { text: streamed, updates, result: { kind: "error", error } };
  }
}

/** The events' types and key fields, for whole-value comparisons. */
export function shape(events: readonly StoredEvent[]): unknown[] {
  return events.map(({ n, event }) => {
    switch (event.type) {
      case "message":
        return [n, "message", event.text];
      case "turn":
        return [n, "turn", event.answers];
      case "assistant":
        return [n, "assistant", event.text, event.tool_calls.map((c) => c.name)];
      case "tool_result":
        return [n, "tool_result", event.not_made ? "not made" : event.content];
      case "answer":
        return [n, "answer", event.text, event.answers];
      case "error":
        return [n, "error", event.message];
      case "summary":
        return [n, "summary"];
    }
  });
}

/**
 * A store wrapper telling when a turn's event is written: the turn's first model call goes out
 * while that event is written (PRC-13), so a test that steers "mid-turn" at a set place among
 * the events waits for it first.
 */
export function watchTurnWrites(): {
  wrapStore: (store: OpenStore) => OpenStore;
  turnWritten: Promise<void>;
} {
  const written = Promise.withResolvers<void>();
  const wrapStore = (store: OpenStore): OpenStore => ({
    ...store,
    append: async (conversation, n, event) => {
      const result = await store.append(conversation, n, event);
      if (event.type === "turn" && result === "ok") written.resolve();
      return result;
    },
    [Symbol.asyncDispose]: () => store[Symbol.asyncDispose](),
  });
  return { wrapStore, turnWritten: written.promise };
}
