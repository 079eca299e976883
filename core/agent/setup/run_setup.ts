import { dirname } from "node:path";
import { LinkError, lockFile, logger, roleArgv, roleEnv } from "../../base/mod.ts";
import {
  type Adapter,
  type AdapterInput,
  answers,
  askAdapter,
  askContract,
  BUILT_INS,
  type ContractAnswer,
  findAdapter,
  npmRegistryEndpoint,
} from "../../adapters/mod.ts";
import type { ProxyUpstream } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { harnessHomeOf, harnessPolicy } from "../grants/mod.ts";
import { sandboxIdentity } from "../sandbox_uid.ts";
import type { AgentSettings } from "../settings.ts";
import { allowedRisks, loadAnswers } from "../asking/mod.ts";
import { adapterInput } from "../adapter_input.ts";
import {
  configuredHash,
  type ConfiguredInputs,
  fileHash,
  readConfigured,
  writeConfigured,
} from "./configured_hash.ts";
import { readInstallMarker, removeInstallMarker, writeInstallMarker } from "./install_marker.ts";
import { runSetupStep, type SetupStep, type StepAdapter, type StepRun } from "./setup_step.ts";

const log = logger("agent");

/** How a start's setup steps run, and what of this machine they reach in tests. */
export interface SetupOptions {
  /** Each line a step prints on stderr, with its step: progress on a terminal. */
  readonly progress?: (step: SetupStep, line: string) => void;
  /** What a person is told of a step before it runs: the registry of theirs the install reaches. */
  readonly note?: (text: string) => void;
  readonly signal?: AbortSignal;
  /** How the steps' proxies reach upstream: tests point them at loopback fakes. */
  readonly proxy?: ProxyUpstream;
  /** The relay role's command line inside; `lnk sandbox relay` unless told. */
  readonly launcher?: readonly string[];
  /** Each step's bound, when not its own (tests). */
  readonly boundMs?: Partial<Record<SetupStep, number>>;
}

/** What the setup steps did at a start. */
export interface SetupDone {
  /** The steps that ran, in order; a step skipped as done already is not here. */
  readonly ran: readonly SetupStep[];
  /** The harness's release its install answered, when it answered one. */
  readonly release?: string;
}

/** An outside adapter found, with its contract: what the steps are asked of. */
interface Outside {
  readonly adapter: Adapter;
  /** How a step runs it: its program, or lnk's own `harness adapter <harness>`. */
  readonly step: StepAdapter;
  /** Variables of the person's own config its steps run with, read outside them when a step runs. */
  readonly stepEnv?: () => Promise<Record<string, string>>;
  /** Built into lnk: only its install is a step, as its endpoint's launcher configures the harness. */
  readonly builtIn: boolean;
  readonly contract: ContractAnswer;
  /**
   * The sha256 of its program's bytes: its release, as a rebuilt one keeps its version (ADP-1).
   * A built-in adapter's is lnk's own program's, so a new lnk asks its install again.
   */
  readonly bytes: string;
}

/**
 * The setup steps of an outside harness at its agent's start, before the harness runs (SBX-13,
 * SBX-14, ADP-1, ADP-2, ADP-9, ADP-15), each in a sandbox of its own:
 * - `install`, when the install folder has no finished install by this adapter: the install folder
 *   writable as its HOME, a proxy of its own reaching only the adapter's `internet-hosts`;
 * - `configure`, when the `.lnk/configured` hash changed: the harness home writable as its HOME,
 *   the install folder read-only, a proxy reaching only `internet-hosts`;
 * - `link`, when the adapter lists it: a proxy reaching any host.
 * Link's own harnesses (built into lnk) have none. A step that fails fails the start, naming the
 * adapter, the step and its stderr's last line; nothing of the agent changed.
 */
export async function runSetup(
  ctx: AgentContext,
  agent: AgentSettings,
  options: SetupOptions = {},
): Promise<SetupDone> {
  const outside = await outsideAdapter(ctx, agent);
  if (!outside) return { ran: [] };
  const ran: SetupStep[] = [];
  const input = await stepInput(ctx, agent);
  // Asked only when a step that reaches them runs: a start with nothing to set up asks nothing.
  let asked: Promise<readonly string[]> | undefined;
  const internetHosts = () =>
    asked ??= answers(outside.contract, "internet-hosts")
      ? askAdapter(outside.adapter, "internet-hosts", { env: ctx.env, input }).then((a) => a?.hosts ?? [])
      : Promise.resolve([]);
  const identity = await sandboxIdentity(ctx.paths, agent.id);
  const step = async <S extends SetupStep>(s: S, fields: Pick<StepRun, "home" | "network" | "read">) =>
    runSetupStep({
      paths: ctx.paths,
      harness: agent.harness,
      adapter: outside.stepEnv
        ? { ...outside.step, env: { ...outside.step.env, ...await outside.stepEnv() } }
        : outside.step,
      step: s,
      input,
      identity,
      onLine: options.progress && ((line) => options.progress!(s, line)),
      signal: options.signal,
      proxy: options.proxy,
      launcher: options.launcher,
      boundMs: options.boundMs?.[s],
      ...fields,
    });
  const installDir = ctx.paths.installDir(agent.harness);
  let release: string | undefined;
  if (answers(outside.contract, "install")) {
    // One install at a time for a harness, whichever agent starts it.
    await Deno.mkdir(ctx.paths.installs, { recursive: true, mode: 0o700 });
    using _lock = await lockFile(`${installDir}.lock`);
    const marker = await readInstallMarker(ctx.paths, agent.harness);
    if (marker?.adapter === outside.bytes) release = marker.release;
    else {
      await removeInstallMarker(ctx.paths, agent.harness);
      const hosts = await internetHosts();
      const registries = await personsRegistries(ctx, hosts);
      if (registries.length) {
        options.note?.(
          `The ${agent.harness} install reaches ${registries.join(", ")}, the registry your npm uses, ` +
            "at whatever address it resolves to (for the install alone)",
        );
      }
      const answer = await step("install", { home: installDir, network: { hosts, registries } });
      release = answer?.version ?? "";
      await writeInstallMarker(ctx.paths, agent.harness, { release, adapter: outside.bytes });
      log.info("Installed an outside harness", { agent: agent.id, harness: agent.harness, release });
      ran.push("install");
    }
  } else await Deno.mkdir(installDir, { recursive: true, mode: 0o700 });
  // A built-in adapter's launcher configures inside the sandbox, where the model's address is known.
  if (answers(outside.contract, "configure") && !outside.builtIn) {
    const home = harnessHomeOf(ctx.paths, agent);
    const inputs: ConfiguredInputs = {
      settings: input.agent?.settings ?? {},
      allowed: input.allowed ?? [],
      proxied: input.proxied ?? true,
      adapter: outside.bytes,
      release: release ?? "",
      ports: agent.ports,
    };
    const kept = await readConfigured(home);
    if (!kept || kept.hash !== await configuredHash(home, inputs, kept.wrote)) {
      const answer = await step("configure", {
        home,
        network: { hosts: await internetHosts() },
        read: [installDir],
      });
      const wrote = answer?.wrote ?? [];
      await writeConfigured(home, { hash: await configuredHash(home, inputs, wrote), wrote });
      ran.push("configure");
    }
  }
  // `link` runs when the adapter lists it: an adapter listing no commands says nothing of it.
  if (outside.contract.commands?.includes("link") && !outside.builtIn) {
    await step("link", {
      home: harnessHomeOf(ctx.paths, agent),
      network: { hosts: ["*"] },
      read: [installDir],
    });
    ran.push("link");
  }
  return { ran, release };
}

/**
 * The registries the person configured that an install step asks to reach (its `internet-hosts`
 * name the host): the person's word, so the step's proxy reaches each at its exact host and port
 * wherever it resolves, a mirror on a private or reserved address too; every other private address
 * stays refused. Today the registry npm uses (`npm config get registry`).
 */
async function personsRegistries(ctx: AgentContext, hosts: readonly string[]): Promise<string[]> {
  const npm = await npmRegistryEndpoint(ctx.env);
  if (!npm) return [];
  const host = npm.slice(0, npm.lastIndexOf(":"));
  return hosts.includes(host) || hosts.includes("*") ? [npm] : [];
}

/**
 * `health` in a sandbox with no network at all but the harness's own port on this machine's
 * loopback (SBX-13): its answer, or undefined for a harness Link ships or an adapter that does not
 * answer it.
 */
export async function runHealthStep(
  ctx: AgentContext,
  agent: AgentSettings,
  options: Pick<SetupOptions, "signal" | "launcher"> & { boundMs?: number; port?: number } = {},
): Promise<{ ok: boolean; detail?: string } | undefined> {
  const outside = await outsideAdapter(ctx, agent);
  if (!outside || !answers(outside.contract, "health")) return undefined;
  return await runSetupStep({
    paths: ctx.paths,
    harness: agent.harness,
    adapter: outside.step,
    step: "health",
    input: await stepInput(ctx, agent),
    home: harnessHomeOf(ctx.paths, agent),
    read: [ctx.paths.installDir(agent.harness)],
    network: { hosts: [], ports: [options.port ?? agent.ports.endpoint] },
    identity: await sandboxIdentity(ctx.paths, agent.id),
    signal: options.signal,
    launcher: options.launcher,
    boundMs: options.boundMs,
  }) ?? { ok: false, detail: "its adapter said nothing to health" };
}

/** The harnesses Link runs itself, with no adapter to ask of setup steps. */
const OWN_HARNESSES = new Set(["link", "mini"]);

/**
 * Whether a harness's adapter is built into lnk (Link Harness's, the mini harness's, acp's,
 * the outside harnesses it ships): its health is its endpoint's, with no health step.
 */
export function isLinks(harness: string): boolean {
  return harness === "link" || BUILT_INS.some((b) => b.harness === harness);
}

/** The agent's adapter when it is a program from outside Link, with its contract. */
async function outsideAdapter(ctx: AgentContext, agent: AgentSettings): Promise<Outside | undefined> {
  if (OWN_HARNESSES.has(agent.harness)) return undefined;
  const adapter = await findAdapter(agent.harness, { env: ctx.env, builtIns: BUILT_INS });
  const contract = await askContract(adapter, { env: ctx.env, input: await stepInput(ctx, agent) });
  if ("builtIn" in adapter) {
    // lnk's own program, by its path, size and time: a new lnk is another file, and reading its
    // hundred megabytes at each start to tell so would cost more than the install step it saves.
    const lnk = await Deno.stat(Deno.execPath()).catch(() => undefined);
    const builtIn = adapter.builtIn;
    return {
      adapter,
      step: { command: roleArgv(["harness", "adapter", agent.harness]), env: roleEnv() },
      // What it reads of the person's own config (the registry it installs from), read here.
      stepEnv: builtIn.stepEnv && (() => builtIn.stepEnv!(ctx.env)),
      builtIn: true,
      contract,
      bytes: `lnk:${agent.harness}:${Deno.execPath()}:${lnk?.size}:${lnk?.mtime?.getTime()}`,
    };
  }
  // Its real path: the folder shown inside is the one its bytes are in.
  const path = await Deno.realPath(adapter.path);
  const bytes = await fileHash(path);
  if (bytes === null) {
    throw new LinkError("HARNESS_MISSING", `Cannot read the adapter of harness "${agent.harness}"`, {
      hint: `Check that ${adapter.path} is a program you can read`,
    });
  }
  return { adapter, step: { command: [path], dir: dirname(path) }, builtIn: false, contract, bytes };
}

/**
 * A step's input (docs/adapters.md): the agent without keys or tokens (GRT-15), the risks allowed
 * and whether the harness runs behind Link's proxy (ADP-13), and the install folder.
 */
async function stepInput(ctx: AgentContext, agent: AgentSettings): Promise<AdapterInput> {
  const policy = await harnessPolicy(ctx, agent);
  return adapterInput(agent, policy.spec.network.mode === "proxy", {
    install: ctx.paths.installDir(agent.harness),
    // The risks the person allowed, handed to configure (ADP-13, GRT-21).
    allowed: allowedRisks(await loadAnswers(ctx.paths, agent.harness)),
  });
}
