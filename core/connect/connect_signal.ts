import { type Clock, logger, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { SignalBot } from "./signal_settings.ts";
import { whileStopped } from "./while_stopped.ts";

const log = logger("connect");

/** What `lnk agent connect signal` was given. */
export interface ConnectSignalOptions {
  daemonUrl: string;
  /** The owner's own number: the one person the agent answers on Signal (CON-6). */
  ownerNumber: string;
  /** The agent's number, when the daemon serves more than one. */
  account?: string;
  clock?: Clock;
}

/**
 * Connects Signal through the person's own signal-cli daemon: checks it answers and which number
 * it serves, and, with the agent stopped, keeps `bots.signal` with the owner's number as typed
 * (Signal has no code to send: "the number you type", CON-6). The daemon holds the device's keys
 * in its own folder, never the sandbox's.
 */
export async function connectSignal(
  ctx: AgentContext,
  agent: AgentSettings,
  options: ConnectSignalOptions,
): Promise<{ agent: AgentSettings; bot: SignalBot }> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const signal = await import("../../connections/signal/mod.ts");
  const me = await signal.checkSignalDaemon({ daemonUrl: options.daemonUrl, number: options.account });
  const bot = SignalBot.parse({
    daemon_url: options.daemonUrl,
    number: me.number,
    owner: { number: options.ownerNumber },
    paired_at: new Date(clock.now()).toISOString(),
  });
  return await whileStopped(ctx, agent, async () => {
    await Deno.mkdir(ctx.paths.connectionDir(agent.id, "signal"), { recursive: true, mode: 0o700 });
    const paired = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, bots: { ...s.bots, signal: bot } }),
    );
    log.info("Signal connected", { agent: agent.id, number: me.number, version: me.version });
    return { agent: paired, bot };
  });
}
