import { SocketModeClient } from "@slack/socket-mode";
import { type Clock, logger } from "../../core/base/mod.ts";
import { isTokenRefused } from "./check_slack_tokens.ts";
import { apiUrlOf, reasonOf, type SlackAccount, slackLogger } from "./slack_account.ts";
import type { SlackState } from "./slack_state.ts";

const log = logger("slack");

/** The longest wait between two tries to reach Slack again. */
export const MAX_RETRY_MS = 30_000;

/** What receiving needs: the account, and where each events_api payload goes before it is acked. */
export interface ReceiveEventsOptions {
  account: SlackAccount;
  clock: Clock;
  signal: AbortSignal;
  onState(state: SlackState): void;
  /** Keeps one envelope's payload; the envelope is acked only once this resolves. */
  keep(payload: unknown, envelope: { retryNum?: number; retryReason?: string }): Promise<void>;
}

/**
 * Holds one Socket Mode connection at a time until `signal` aborts, acking each envelope only after
 * `keep` has it (persist before acknowledging). A disconnect frame or a dropped socket is followed
 * by a new connection once the old one is closed ("reconnecting", then "connected"); an app-level
 * token Slack refuses ends it ("failed").
 */
export async function receiveEvents(options: ReceiveEventsOptions): Promise<"stopped" | "failed"> {
  const { clock, signal } = options;
  let failures = 0;
  let last: SlackState["state"] | undefined;
  const say = (state: SlackState["state"], why?: string) => {
    if (state === last && !why) return;
    last = state;
    options.onState({ state, ...(why ? { why } : {}), at: clock.now() });
  };
  while (!signal.aborted) {
    const ended = await holdOne(options, () => {
      failures = 0;
      say("connected");
    }).catch((err) => err instanceof Error ? err : new Error(String(err)));
    if (signal.aborted) break;
    if (ended instanceof Error && isTokenRefused(ended)) {
      log.error("Cannot carry Slack: Slack refused the app-level token", {
        err: reasonOf(options.account, ended),
      });
      say("failed", "Slack refused the app-level token: it may have been revoked");
      return "failed";
    }
    const why = ended instanceof Error ? reasonOf(options.account, ended) : "Slack closed the connection";
    log.info("The Slack connection closed, connecting again", { why, failures });
    say("reconnecting", why);
    if (ended instanceof Error) failures++;
    if (failures > 0) {
      await clock.sleep(Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)), signal).catch(() => {});
    }
  }
  return "stopped";
}

/** One Socket Mode connection, from apps.connections.open to its close (or `signal`). */
async function holdOne(options: ReceiveEventsOptions, onConnected: () => void): Promise<void> {
  const client = new SocketModeClient({
    appToken: options.account.appToken.reveal(),
    autoReconnectEnabled: false,
    logger: slackLogger(options.account),
    clientOptions: { slackApiUrl: apiUrlOf(options.account), retryConfig: { retries: 0 } },
  });
  const closed = Promise.withResolvers<void>();
  client.on("disconnected", () => closed.resolve());
  client.on("slack_event", async (args: SlackEventArgs) => {
    try {
      if (args.type === "events_api") {
        await options.keep(args.body, { retryNum: args.retry_num, retryReason: args.retry_reason });
      }
      await args.ack();
    } catch (err) {
      // Not acked: Slack sends the envelope again.
      log.warn("Cannot keep a Slack event, leaving it for Slack to send again", {
        err: reasonOf(options.account, err),
      });
    }
  });
  const stop = () => void client.disconnect();
  options.signal.addEventListener("abort", stop, { once: true });
  try {
    await client.start();
    onConnected();
    await closed.promise;
  } finally {
    options.signal.removeEventListener("abort", stop);
    if (!options.signal.aborted) await client.disconnect().catch(() => {});
    else await closed.promise;
    client.removeAllListeners();
  }
}

/** What the Socket Mode client gives each envelope's listener. */
interface SlackEventArgs {
  type: string;
  body: unknown;
  retry_num?: number;
  retry_reason?: string;
  ack(): Promise<void>;
}
