import { type Clock, LinkError, logger } from "../../core/base/mod.ts";
import { isPairingCode } from "../chat/mod.ts";
import { PAIRING_STRIKES } from "./pair_slack_owner.ts";
import { waitForPairingEvent } from "./pairing_events.ts";
import { type SlackAccount, slackWebClient } from "./slack_account.ts";
import { isPersonsMention, type SlackMessageEvent, withoutMentions } from "./slack_event.ts";

const log = logger("slack");

/** A share under way: its code, when it expires, the owner, and the connection's folder. */
export interface PairSlackShareOptions {
  code: string;
  expiresAt: number;
  /** The paired owner's member id (`U…`): nobody else shares. */
  ownerId: string;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The channel shared: its ID as `chat:slack:<team>:<channel>` names it, and its name. */
export interface SlackShare {
  chat: string;
  title: string;
}

/**
 * Listens on Socket Mode, while the bridge is stopped, until the owner mentions the app with the
 * code (`app_mention`: `@Link ABCD-EFGH`) in a channel before it expires (ACS-5): that channel is
 * shared. The code in a DM, from anyone else, from a bot, in an edit or after it expired never
 * shares; a sender of five wrong codes is no longer read. It never writes the spec; every event
 * seen is acked and remembered as answered, so carrying after does not answer them.
 */
export async function pairSlackShare(
  account: SlackAccount,
  options: PairSlackShareOptions,
): Promise<SlackShare> {
  const strikes = new Map<string, number>();
  const { found, failed } = await waitForPairingEvent(
    account,
    options,
    (payload) =>
      shares(payload.event, options, strikes)
        ? { team: payload.team_id ?? "", channel: payload.event.channel! }
        : undefined,
  );
  if (found) return { chat: `${found.team}:${found.channel}`, title: await titleOf(account, found.channel) };
  if (failed) {
    throw new LinkError("REFUSED", `Cannot share a channel on Slack: ${failed}`, {
      hint:
        "Make an app-level token with connections:write on the app's Basic Information page, then connect Slack again",
    });
  }
  throw new LinkError(
    "TIMEOUT",
    "Cannot share a channel on Slack: the owner sent no code before it expired",
    {
      hint: "Share the channel again and mention the app with the new code in the channel",
    },
  );
}

/** Whether an event is the owner's mention of the app with the code; a wrong code is a strike. */
function shares(
  event: SlackMessageEvent,
  options: { code: string; ownerId: string },
  strikes: Map<string, number>,
): boolean {
  if (!isPersonsMention(event) || event.text === undefined) return false;
  const sender = event.user!;
  const struck = strikes.get(sender) ?? 0;
  if (struck >= PAIRING_STRIKES) return false;
  if (sender === options.ownerId && isPairingCode(withoutMentions(event.text), options.code)) return true;
  strikes.set(sender, struck + 1);
  if (struck + 1 === PAIRING_STRIKES) log.warn("Ignoring a sender of wrong share codes", { sender });
  return false;
}

/** The channel's name as the workspace shows it (`#general`), or its id if conversations.info does not say. */
async function titleOf(account: SlackAccount, channel: string): Promise<string> {
  try {
    const info = await slackWebClient(account).conversations.info({ channel });
    return info.channel?.name ? `#${info.channel.name}` : channel;
  } catch {
    return channel;
  }
}
