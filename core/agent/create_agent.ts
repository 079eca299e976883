import { isAbsolute, resolve } from "node:path";
import { LinkError, lockFile } from "../base/mod.ts";
import { ACP_COMMAND_EXAMPLE, DEFAULT_HARNESS, KNOWN, splitCommand } from "../adapters/mod.ts";
import { findPlugin } from "../plugins/mod.ts";
import { checkAgentName, issueAgentId } from "./agent_id.ts";
import { listAgents } from "./agents.ts";
import type { AgentContext } from "./context.ts";
import { agentLayout, createLayout } from "./layout.ts";
import { loadMachine } from "./machine.ts";
import { standInOwner } from "./owner.ts";
import { blockPorts, firstFreeBlock } from "./ports.ts";
import { type AgentSettings, saveSettings } from "./settings.ts";

/** What `lnk agent create` may set. */
export interface CreateAgentOptions {
  harness?: string;
  model?: string;
  modelUrl?: string;
  /** A Home the person picks (LAY-2): made if missing, and left in place on remove. */
  files?: string;
  /** The folder relative --files is read from. */
  cwd?: string;
  /** The command of a stdio ACP agent, for harness acp. */
  acpCommand?: string;
}

/** The ports other agents of this user hold, so a new block overlaps none (PRT-3). */
export function portsOf(agents: readonly AgentSettings[]): Set<number> {
  return new Set(agents.flatMap((a) => [a.ports.endpoint, ...blockPorts(a.ports.block)]));
}

/**
 * Creates an agent: a new ID, its stand-in owner, its settings, its folders, and its spec and
 * sandbox file from the defaults. The first agent is `main`. Creates run one at a time (the
 * agents' lock), from the check of the name to the write of the settings, so two creates of one
 * name make one agent, and each create's block of ports is its own.
 */
export async function createAgent(
  ctx: AgentContext,
  name: string | undefined,
  options: CreateAgentOptions = {},
): Promise<AgentSettings> {
  await Deno.mkdir(ctx.paths.agentsState, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(ctx.paths.agentsLock);
  const agents = await listAgents(ctx);
  const chosen = name ?? (agents.length === 0 ? "main" : undefined);
  if (chosen === undefined) {
    throw new LinkError("USAGE", "Cannot create an agent without a name: you have agents already", {
      hint: "Name it, such as `lnk agent create work`",
    });
  }
  checkAgentName(chosen);
  const taken = agents.find((a) => a.name.toLowerCase() === chosen.toLowerCase());
  if (taken) {
    throw new LinkError(
      "AGENT_EXISTS",
      `Cannot create agent "${chosen}": the name is taken by agent "${taken.name}"`,
      {
        hint: "Pick another name, or remove that agent first with `lnk agent remove`",
      },
    );
  }
  const harness = await checkHarness(ctx, options.harness ?? DEFAULT_HARNESS, chosen);
  const acp = acpSettings(harness, options.acpCommand, chosen);
  const layout = agentLayout(ctx.paths, chosen, filesHome(options));
  await refuseLeftovers(layout.root, chosen);
  const machine = await loadMachine(ctx.paths);
  const id = await issueAgentId(ctx.paths);
  const block = firstFreeBlock(portsOf(agents));
  const settings: AgentSettings = {
    id,
    name: chosen,
    owner: standInOwner(machine),
    harness,
    ...(options.model ? { model: options.model } : {}),
    ...(options.modelUrl ? { model_url: options.modelUrl } : {}),
    ...(options.files ? { home: layout.home } : {}),
    created: new Date().toISOString(),
    ports: { endpoint: chosen === "main" ? KNOWN[harness]?.defaultPort ?? block : block, block },
    sandbox: { enabled: true },
    bots: {},
    ...(acp ? { acp } : {}),
  };
  await createLayout(layout, chosen);
  await saveSettings(ctx.paths, settings);
  return settings;
}

/** The acp harness's command, read as its words: required for acp, refused for any other harness. */
function acpSettings(
  harness: string,
  command: string | undefined,
  name: string,
): { command: string[] } | undefined {
  if (harness !== "acp") {
    if (command === undefined) return undefined;
    throw new LinkError("USAGE", `Cannot create agent "${name}": --acp-command is for harness acp alone`, {
      hint: `Add --harness acp, or leave out --acp-command`,
    });
  }
  if (command === undefined) {
    throw new LinkError("USAGE", `Cannot create agent "${name}" on harness acp without its command`, {
      hint: `Name the ACP agent's command, such as --acp-command "${ACP_COMMAND_EXAMPLE}"`,
    });
  }
  return { command: splitCommand(command) };
}

function filesHome(options: CreateAgentOptions): string | undefined {
  if (!options.files) return undefined;
  return isAbsolute(options.files) ? options.files : resolve(options.cwd ?? Deno.cwd(), options.files);
}

async function refuseLeftovers(root: string, name: string): Promise<void> {
  try {
    await Deno.lstat(root);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  throw new LinkError("AGENT_EXISTS", `Cannot create agent "${name}": the folder "${root}" exists already`, {
    hint: "Move that folder away or pick another name; `lnk agent restore` brings back a removed agent",
  });
}

async function checkHarness(ctx: AgentContext, harness: string, name: string): Promise<string> {
  const known = KNOWN[harness];
  if (!known && !(await findPlugin(harness, ctx.env))) {
    throw new LinkError(
      "HARNESS_MISSING",
      `Cannot create agent "${name}": there is no harness "${harness}"`,
      {
        hint: `Harnesses Link knows: ${
          Object.keys(KNOWN).join(", ")
        }; another must be on the PATH as lnk-${harness}`,
      },
    );
  }
  if (known && !known.takesPort && name !== "main") {
    throw new LinkError(
      "REFUSED",
      `Cannot create agent "${name}" on ${known.title}: it does not take LNK_PORT, so it runs only main`,
      {
        hint: "Use another harness for this agent (PRT-2)",
      },
    );
  }
  return harness;
}
