import {
  type AgentKey,
  type Clock,
  decodeKey,
  joinPath,
  type LinkPaths,
  logger,
  Secret,
  SYSTEM_CLOCK,
} from "../../base/mod.ts";
import type { Spec } from "../../spec/mod.ts";
import type { SandboxSpec } from "../../../sandbox/mod.ts";
import { resolveModel } from "../model/mod.ts";
import type { OpenStore } from "../store/mod.ts";
// The default driver alone; the others, and the agent's files read here, load only when used (PRC-13).
import { filesStore } from "../store/files_store.ts";
import { buildSystemPrompt } from "../prompt/mod.ts";
import type { AgentFolders } from "../tools/mod.ts";
import { KeptAnswers } from "../turns/kept_answers.ts";
import {
  DEFAULT_CONTEXT_TOKENS,
  type TurnAgent,
  type TurnModel,
  type TurnTools,
} from "../turns/turn_agent.ts";
import { turnSettingsOf } from "../turns/turn_settings.ts";
import type { ServedAgentInput } from "./harness_input.ts";
import type { ToolBase } from "./harness_tools.ts";
import { lazyTurnTools } from "./lazy_tools.ts";
import { withProxiedTools } from "./proxied_turn_tools.ts";
import type { ProxiedTools } from "../tools/proxied_call.ts";
import { lazyProxiedTools } from "../tools/lazy_proxied_tools.ts";

const log = logger("harness");

/** An agent ready to serve: what its turns use, its key, and its store and runner to close at the end. */
export interface LoadedAgent {
  agent: TurnAgent;
  key: AgentKey;
  store: OpenStore;
  /** run's runner, when it keeps its commands out of folders (keepFromRun). */
  runner?: AsyncDisposable;
}

/** Where an agent's answers nobody waited for are kept, beside its conversations. */
export function keptDir(agentDir: string): string {
  return joinPath(agentDir, "chats", ".kept");
}

/**
 * Reads what one agent's turns need, once at the start (PRN-2): its settings as last read and its
 * spec's `[turns]` and `[model]` (TRN-3), its store, its model (a refused key shows at the first
 * message, never here: MDL-2), its tools over its grants, and its instructions.
 */
export async function loadServedAgent(
  input: ServedAgentInput,
  options: { paths: LinkPaths; env: { get(name: string): string | undefined }; clock?: Clock },
): Promise<LoadedAgent> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const { name, owner, folders, spec, sandbox, model } = await agentFiles(input, options);
  const chats = joinPath(folders.agent, "chats");
  // A driver outside keeps the conversations when the agent role hands the store bridge (TRN-14).
  const store = input.store
    ? (await import("../store/mod.ts")).bridgeStore({
      socket: input.store.socket,
      agentId: input.id,
      owner,
      key: decodeKey(input.key),
    })
    : spec.model.store === "sqlite"
    ? (await import("../store/mod.ts")).sqliteStore(joinPath(chats, "conversations.sqlite"))
    : filesStore(chats);
  const toolFolders: AgentFolders = {
    home: folders.home,
    instructions: joinPath(folders.agent, "instructions"),
    skills: joinPath(folders.agent, "skills"),
    memory: joinPath(folders.agent, "memory"),
    chats,
  };
  const base: ToolBase = {
    agentId: input.id,
    owner,
    folders: toolFolders,
    grants: sandbox,
    clock,
    proxy: input.proxy,
  };
  const own = await ownTools(input, base, store);
  const proxied = input.toolProxy && proxiedTools(input, clock);
  const tools = proxied ? withProxiedTools(own.tools, proxied, store) : own.tools;
  const runner = proxied ? closingBoth(own.runner, proxied) : own.runner;
  const agent: TurnAgent = {
    id: input.id,
    owner,
    name,
    store,
    kept: new KeptAnswers(keptDir(folders.agent)),
    model,
    tools,
    system: await buildSystemPrompt({ folders: toolFolders, agentName: name, files: sandbox.files }),
    turns: turnSettingsOf(spec),
    contextTokens: spec.model.context ?? DEFAULT_CONTEXT_TOKENS,
    clock,
    holders: joinPath(chats, ".holders"),
  };
  return { agent, key: decodeKey(input.key), store, runner };
}

/** What the agent's files say: its settings, spec, grants and model. */
interface AgentFiles {
  name: string;
  owner: string;
  folders: { agent: string; home: string };
  spec: Spec;
  sandbox: SandboxSpec;
  model: TurnModel;
}

/**
 * The agent's files as the harness needs them: what the agent role handed over (inside the
 * sandbox, which hides ~/.lnk and Config/), else read here.
 */
async function agentFiles(
  input: ServedAgentInput,
  options: { paths: LinkPaths; env: { get(name: string): string | undefined } },
): Promise<AgentFiles> {
  const { owner, folders, spec, grants, model } = input;
  if (owner && folders && spec && grants && model) {
    const key = model.key === undefined ? undefined : new Secret(model.key);
    return { name: input.name, owner, folders, spec, sandbox: grants, model: { ...model, key } };
  }
  const { layoutOf, loadAgentConfig, loadSettings } = await import("../../agent/mod.ts");
  const settings = await loadSettings(options.paths, input.id);
  const config = await loadAgentConfig(options.paths, settings);
  const layout = layoutOf(options.paths, settings);
  const resolved = model
    ? { ...model, key: model.key === undefined ? undefined : new Secret(model.key) }
    : await resolveModel({ model: settings.model, modelUrl: settings.model_url, env: options.env });
  return {
    name: settings.name,
    owner: owner ?? settings.owner,
    folders: folders ?? { agent: layout.agent, home: layout.home },
    spec: spec ?? config.spec,
    sandbox: grants ?? config.sandbox,
    model: { baseUrl: resolved.baseUrl, model: resolved.model, key: resolved.key },
  };
}

/**
 * Link's tools through the tool proxy (SBX-18). As the bridge listed them when it handed them over:
 * told to the model from the start, the MCP SDK loaded at the first call of one (PRC-13). Else
 * listed from the start in the background with the SDK, loaded only here: the first turn waits for
 * the list, so every turn has the same (PRN-2). A proxy that does not answer leaves the harness's
 * own tools, said in the log.
 */
function proxiedTools(input: ServedAgentInput, clock: Clock): Promise<ProxiedTools | undefined> {
  const proxy = input.toolProxy!;
  const taken = (input.tools ?? []).map((t) => t.function.name);
  if (proxy.listed) {
    return Promise.resolve(lazyProxiedTools({
      url: proxy.url,
      socket: proxy.socket,
      listed: proxy.listed,
      taken,
      clock,
      agentId: input.id,
    }));
  }
  return import("../tools/proxied_tools.ts")
    .then(({ listProxiedTools }) =>
      listProxiedTools({
        url: proxy.url,
        servers: proxy.servers,
        socket: proxy.socket,
        taken,
        clock,
        agentId: input.id,
      })
    )
    .catch((err) => {
      log.warn("Link's tools could not be loaded: the harness's own tools work without them", {
        agent: input.id,
        error: err instanceof Error ? err.name : "unknown",
      });
      return undefined;
    });
}

/** Run's runner and the tool proxy's clients, both closed at the end. */
function closingBoth(
  runner: AsyncDisposable | undefined,
  proxied: Promise<ProxiedTools | undefined>,
): AsyncDisposable {
  return {
    async [Symbol.asyncDispose]() {
      await runner?.[Symbol.asyncDispose]();
      await (await proxied)?.[Symbol.asyncDispose]();
    },
  };
}

/** The harness's own tools, and run's runner to close at the end. */
interface OwnTools {
  tools: TurnTools;
  runner?: AsyncDisposable;
}

/**
 * The harness's own tools over the agent's grants. When their definitions were handed over, the
 * tools (and run's runner, which keeps Agent/ from run's commands: keepFromRun) load at the model's
 * first call of one, so the first model call waits on none of them (PRC-13).
 */
async function ownTools(input: ServedAgentInput, base: ToolBase, store: OpenStore): Promise<OwnTools> {
  const make = async (): Promise<OwnTools> => {
    const [{ builtinTools, ConfinedRun }, { harnessTurnTools }] = await Promise.all([
      import("../tools/mod.ts"),
      import("./harness_tools.ts"),
    ]);
    const runner = input.keepFromRun &&
      new ConfinedRun(input.keepFromRun, { env: input.runEnv, hide: input.hideFromRun });
    const tools = builtinTools({ grants: base.grants });
    return { tools: harnessTurnTools(tools, { ...base, runCommand: runner?.run }, store), runner };
  };
  if (!input.tools) return await make();
  let made: Promise<OwnTools> | undefined;
  const load = () => {
    made ??= make();
    made.catch(() => (made = undefined));
    return made;
  };
  return {
    tools: lazyTurnTools(input.tools, async () => (await load()).tools, store),
    runner: {
      async [Symbol.asyncDispose]() {
        await (await made?.catch(() => undefined))?.runner?.[Symbol.asyncDispose]();
      },
    },
  };
}
