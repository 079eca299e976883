import { type Clock, logger, type Secret } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { type ConnectionName, PAIRING_MS } from "./known_connections.ts";
import { writeConnectionSecret } from "./connection_secret.ts";
import { whileStopped } from "./while_stopped.ts";

const log = logger("connect");

/** How a platform pairs its owner, once its tokens check. */
export interface Pairing<Owner, Bot> {
  name: ConnectionName;
  /** The bot as the person knows it, printed with the code. */
  botName: string;
  onCode(pairing: { code: string; expiresAt: number; bot: string }): void;
  /** Waits for the code in a private chat or direct message, as only the owner can send it. */
  pair(
    wait: { code: string; expiresAt: number; stateDir: string; clock: Clock; signal?: AbortSignal },
  ): Promise<Owner>;
  /** The tokens to keep in the connection's folder, by file name. */
  secrets: Record<string, Secret>;
  /** `bots.<name>` in the settings, for the owner paired now. */
  settings(owner: Owner, pairedAt: string): Bot;
  clock: Clock;
  signal?: AbortSignal;
}

/**
 * Pairs a connection's owner (CON-6) with the agent stopped (the pairing must be the platform's
 * only reader, ACS-5): prints a one-time code that holds ten minutes, takes as owner whoever sends
 * it where only they can, then keeps the tokens in the connection's folder (never the sandbox's,
 * CON-12) and `bots.<name>` in the settings, and starts the agent again if it ran. A pairing that
 * fails leaves the agent as it was and its connections unchanged.
 */
export async function pairConnection<Owner extends { id: unknown }, Bot extends Record<string, unknown>>(
  ctx: AgentContext,
  agent: AgentSettings,
  pairing: Pairing<Owner, Bot>,
): Promise<{ agent: AgentSettings; bot: Bot }> {
  const { name, clock } = pairing;
  const chat = await import("../../connections/chat/mod.ts");
  return await whileStopped(ctx, agent, async () => {
    const stateDir = ctx.paths.connectionDir(agent.id, name);
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
    const code = chat.newPairingCode();
    const expiresAt = clock.now() + PAIRING_MS;
    pairing.onCode({ code, expiresAt, bot: pairing.botName });
    const owner = await pairing.pair({ code, expiresAt, stateDir, clock, signal: pairing.signal });
    for (const [file, secret] of Object.entries(pairing.secrets)) {
      await writeConnectionSecret(ctx.paths, agent.id, name, file, secret);
    }
    const bot = pairing.settings(owner, new Date(clock.now()).toISOString());
    const paired = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, bots: { ...s.bots, [name]: bot } }),
    );
    log.info("Connected", { agent: agent.id, connection: name, bot: pairing.botName, owner: owner.id });
    return { agent: paired, bot };
  });
}
