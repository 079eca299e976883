import { LinkError, logger } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import { readKey } from "../keyring.ts";
import { type AgentSettings, loadSettings } from "../settings.ts";
import { type AgentLaunch, type AgentLaunchOptions, prepareAgentLaunch } from "./agent_launch.ts";
import { type AgentStarter, type LoggedError, serviceFailure } from "./door/mod.ts";
import type { HarnessProcess } from "./harness_process.ts";
import { type HarnessRecord, removeHarnessRecord, writeHarnessRecord } from "./harness_record.ts";
import { launchSignature } from "./launch_signature.ts";

const log = logger("agent");

/** What the bridge's own start of its agent needs besides the agent. */
export interface InBridgeStarterOptions extends AgentLaunchOptions {
  /** The harness's endpoint socket, which the door relays to. */
  readonly socket: string;
  /**
   * The first error logged since a failed start began (the harness's own reason, in the bridge's
   * log), so the start's failure says it; none when the bridge has no log to read (a terminal).
   */
  readonly loggedSince?: (sinceMs: number) => Promise<LoggedError | undefined>;
}

/** The bridge's own start of its agent, keeping what a start needs while the agent sleeps. */
export interface InBridgeStarter extends AgentStarter {
  /** Prepares the next start now, so a wake only spawns; a failure is left for the start to say. */
  preload(): Promise<void>;
}

/**
 * Starts the agent inside its bridge (PRC-13): its proxy and relays in the bridge's process, its
 * sandbox with the harness as the bridge's child (bubblewrap --die-with-parent), so a wake starts
 * no Link process but the harness. What a start reads, checks and plans is kept from one start to
 * the next and made again only once the agent's settings, spec, sandbox file or grants changed.
 * Sleep stops the sandbox, the proxy and the relays, leaving only the bridge.
 */
export function inBridgeStarter(
  ctx: AgentContext,
  agent: AgentSettings,
  options: InBridgeStarterOptions,
): InBridgeStarter {
  return new BridgeStarter(ctx, agent, options);
}

type Prepared = { launch: AgentLaunch; signature: string };

class BridgeStarter implements InBridgeStarter {
  #ctx: AgentContext;
  #agent: AgentSettings;
  #options: InBridgeStarterOptions;
  #prepared: Prepared | undefined;
  #preparing: Promise<Prepared> | undefined;
  #running: HarnessProcess | undefined;
  #record: Omit<HarnessRecord, "died"> | undefined;
  #died: HarnessRecord["died"];
  #recording: Promise<void> = Promise.resolve();

  constructor(ctx: AgentContext, agent: AgentSettings, options: InBridgeStarterOptions) {
    this.#ctx = ctx;
    this.#agent = agent;
    this.#options = options;
  }

  async preload(): Promise<void> {
    await this.#current().catch(() => {});
  }

  async start(signal: AbortSignal): Promise<void> {
    const sinceMs = Date.now();
    await this.stop();
    try {
      const key = await readKey(this.#ctx.paths, this.#agent.id);
      if (!key) {
        throw new LinkError(
          "AGENT_NOT_RUNNING",
          `Cannot run agent "${this.#agent.name}": it has no key bound`,
          { hint: "Start it with `lnk agent start`" },
        );
      }
      const { launch } = await this.#current();
      const harness = await launch.launch(key, { socket: this.#options.socket, signal });
      this.#running = harness;
      this.#record = {
        pid: harness.pid,
        bridgePid: Deno.pid,
        sandboxed: harness.sandboxed,
        started: new Date().toISOString(),
      };
      this.#died = undefined;
      this.#watch(harness);
      await this.#sync();
      log.info("Agent started", {
        agent: this.#agent.id,
        harness: launch.agent.harness,
        pid: harness.pid,
        sandboxed: harness.sandboxed,
        proxied: harness.proxied,
      });
    } catch (err) {
      await this.stop().catch(() => {});
      const logged = await this.#options.loggedSince?.(sinceMs);
      throw serviceFailure(err, `Cannot wake agent "${this.#agent.name}"`, logged);
    }
  }

  async stop(): Promise<void> {
    const harness = this.#running;
    this.#running = undefined;
    if (!harness) return;
    await this.#sync();
    await harness.stop();
    await Deno.remove(this.#options.socket).catch(() => {});
    log.info("Agent stopped", { agent: this.#agent.id });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** The prepared start, made again first when what it was made from changed. */
  async #current(): Promise<Prepared> {
    if (this.#preparing) await this.#preparing.catch(() => {});
    const kept = this.#prepared;
    if (kept && kept.signature === await launchSignature(this.#ctx, kept.launch.agent)) return kept;
    this.#preparing = this.#prepare();
    try {
      return await this.#preparing;
    } finally {
      this.#preparing = undefined;
    }
  }

  async #prepare(): Promise<Prepared> {
    // The settings read at the bridge's start, then read again at each change.
    const settings = this.#prepared ? await loadSettings(this.#ctx.paths, this.#agent.id) : this.#agent;
    const signature = await launchSignature(this.#ctx, settings);
    const launch = await prepareAgentLaunch(this.#ctx, settings, this.#options);
    this.#prepared = { launch, signature };
    return this.#prepared;
  }

  /** A harness that exits unbidden is said dead; the next message finds its socket refusing and starts it again. */
  #watch(harness: HarnessProcess): void {
    harness.status.then(async (status) => {
      if (this.#running !== harness) return;
      // Recorded before it is said, so whoever reads the log finds the record saying so too.
      this.#died = { code: status.code, at: new Date().toISOString() };
      await this.#sync();
      log.error("Harness exited unbidden", { agent: this.#agent.id, code: status.code });
      // Its proxy and relays go with it.
      await harness.stop().catch(() => {});
      await Deno.remove(this.#options.socket).catch(() => {});
    });
  }

  /** Writes the harness record as things stand when the write comes up, one write at a time. */
  #sync(): Promise<void> {
    const paths = this.#ctx.paths;
    const id = this.#agent.id;
    this.#recording = this.#recording.then(async () => {
      if (!this.#running || !this.#record) return await removeHarnessRecord(paths, id);
      await writeHarnessRecord(paths, id, { ...this.#record, ...(this.#died ? { died: this.#died } : {}) });
    }).catch((err) => log.warn("Cannot write the harness record", { agent: id, error: err }));
    return this.#recording;
  }
}
