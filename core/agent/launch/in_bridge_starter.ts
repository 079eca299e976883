import { LinkError, logger } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import { readKey } from "../keyring.ts";
import { type AgentSettings, loadSettings } from "../settings.ts";
import { type AgentLaunch, type AgentLaunchOptions, prepareAgentLaunch } from "./agent_launch.ts";
import { serviceFailure } from "../service_failure.ts";
import type { AgentStarter } from "./agent_starter.ts";
import type { HarnessProcess } from "./harness_process.ts";
import { type HarnessRecord, removeHarnessRecord, writeHarnessRecord } from "../harness_record.ts";
import { launchSignature } from "./launch_signature.ts";
import { type LaunchWatch, watchLaunchFolders } from "./launch_watch.ts";
import { layoutOf } from "../layout.ts";

const log = logger("agent");

/** What the bridge's own start of its agent needs besides the agent. */
export interface InBridgeStarterOptions extends AgentLaunchOptions {
  /** The harness's endpoint socket, which the door relays to. */
  readonly socket: string;
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
 * the next and made again once the agent's settings, spec, sandbox file or grants change: at the
 * change (a watch of their folders) while the agent sleeps, and in any case at the next wake,
 * which checks. Sleep stops the sandbox, the proxy and the relays, leaving only the bridge.
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
  #folders: Promise<LaunchWatch> | undefined;
  #refreshing: Promise<void> | undefined;
  #again = false;
  #closed = false;
  /** Counts starts, so a dead harness's clean-up never takes what a newer start made. */
  #starts = 0;

  constructor(ctx: AgentContext, agent: AgentSettings, options: InBridgeStarterOptions) {
    this.#ctx = ctx;
    this.#agent = agent;
    this.#options = options;
  }

  async preload(): Promise<void> {
    await this.#current().catch(() => {});
  }

  async start(signal: AbortSignal): Promise<void> {
    this.#starts++;
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
        ...(harness.shared ? { shared: true } : {}),
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
        shared: harness.shared ?? false,
      });
    } catch (err) {
      await this.stop().catch(() => {});
      throw serviceFailure(err, `Cannot wake agent "${this.#agent.name}"`);
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

  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    await this.#refreshing;
    await this.stop();
    await (await this.#folders)?.[Symbol.asyncDispose]();
  }

  /** The prepared start, made again first when what it was made from changed; one preparing at a time. */
  async #current(): Promise<Prepared> {
    for (;;) {
      if (this.#preparing) await this.#preparing.catch(() => {});
      const kept = this.#prepared;
      if (kept && kept.signature === await launchSignature(this.#ctx, kept.launch.agent)) return kept;
      if (this.#preparing) continue; // another began meanwhile: its outcome is looked at again
      this.#preparing = this.#prepare();
      try {
        return await this.#preparing;
      } finally {
        this.#preparing = undefined;
      }
    }
  }

  async #prepare(): Promise<Prepared> {
    // The settings read at the bridge's start, then read again at each change.
    const settings = this.#prepared ? await loadSettings(this.#ctx.paths, this.#agent.id) : this.#agent;
    const signature = await launchSignature(this.#ctx, settings);
    const launch = await prepareAgentLaunch(this.#ctx, settings, this.#options);
    if (this.#prepared) log.info("The agent's start is prepared again", { agent: this.#agent.id });
    this.#prepared = { launch, signature };
    if (!this.#closed) this.#folders ??= this.#watchFolders(settings);
    return this.#prepared;
  }

  /** Watches the folders of what a start is made from, preparing it again at each change. */
  #watchFolders(agent: AgentSettings): Promise<LaunchWatch> {
    const paths = this.#ctx.paths;
    const folders = [
      layoutOf(paths, agent).config,
      paths.agentState(agent.id),
      paths.agentsState,
      paths.harnesses,
      paths.lnk,
    ];
    return watchLaunchFolders(folders, () => this.#refresh());
  }

  /** Prepares the start again if what it was made from changed; changes meanwhile make one more. */
  #refresh(): void {
    if (this.#closed) return;
    if (this.#refreshing) {
      this.#again = true;
      return;
    }
    this.#refreshing = (async () => {
      do {
        this.#again = false;
        await this.#current().catch((err) => {
          // Said at the next wake, which prepares it again; a file may be half edited now.
          log.debug("Cannot prepare the agent's start again", { agent: this.#agent.id, error: err });
        });
      } while (this.#again && !this.#closed);
    })().finally(() => (this.#refreshing = undefined));
  }

  /** A harness that exits unbidden is said dead; the next message finds its socket refusing and starts it again. */
  #watch(harness: HarnessProcess): void {
    const start = this.#starts;
    harness.status.then(async (status) => {
      if (this.#running !== harness) return;
      // Recorded before it is said, so whoever reads the log finds the record saying so too.
      this.#died = { code: status.code, at: new Date().toISOString() };
      await this.#sync();
      log.error("Harness exited unbidden", { agent: this.#agent.id, code: status.code });
      // Its proxy and relays go with it; its socket too, unless a start since has made its own there.
      await harness.stop().catch(() => {});
      if (this.#starts === start) await Deno.remove(this.#options.socket).catch(() => {});
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
