import { type Clock, LinkError, logger } from "../../core/base/mod.ts";
import { isPairingCode } from "../chat/mod.ts";
import { waitForPairingEvent } from "./pairing_events.ts";
import { type SlackAccount, slackWebClient } from "./slack_account.ts";
import { isPersonsDm } from "./slack_event.ts";

const log = logger("slack");

/** How many wrong codes a sender may send before their messages are no longer read. */
export const PAIRING_STRIKES = 5;

/** A pairing under way: its code, when it expires, and the connection's folder. */
export interface PairSlackOwnerOptions {
  code: string;
  expiresAt: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The owner paired: their member id, their workspace, and their name. */
export interface SlackOwner {
  id: string;
  teamId: string;
  name: string;
}

/**
 * Listens on Socket Mode until someone sends exactly the code in a DM with the app before it
 * expires (CON-6): that person is the owner. The code in a channel, from a bot, in an edit, or
 * after it expired never pairs; a sender of five wrong codes is no longer read. Every event seen is
 * acked and remembered as answered, so the carrier does not answer the pairing's messages.
 */
export async function pairSlackOwner(
  account: SlackAccount,
  options: PairSlackOwnerOptions,
): Promise<SlackOwner> {
  const strikes = new Map<string, number>();
  const { found, failed } = await waitForPairingEvent(account, options, (payload) => {
    const event = payload.event;
    if (!isPersonsDm(event) || event.text === undefined) return undefined;
    const struck = strikes.get(event.user!) ?? 0;
    if (struck >= PAIRING_STRIKES) return undefined;
    if (isPairingCode(event.text, options.code)) return { id: event.user!, teamId: payload.team_id ?? "" };
    strikes.set(event.user!, struck + 1);
    if (struck + 1 === PAIRING_STRIKES) {
      log.warn("Ignoring a sender of wrong pairing codes", { sender: event.user });
    }
    return undefined;
  });
  if (found) return { ...found, name: await nameOf(account, found.id) };
  if (failed) {
    throw new LinkError("REFUSED", `Cannot pair the owner on Slack: ${failed}`, {
      hint:
        "Make an app-level token with connections:write on the app's Basic Information page, then connect Slack again",
    });
  }
  throw new LinkError("TIMEOUT", "Cannot pair the owner on Slack: nobody sent the code before it expired", {
    hint: "Connect Slack to the agent again and send the new code to the app in a direct message",
  });
}

/** The owner's name as the workspace shows it, or their member id if users.info does not say. */
async function nameOf(account: SlackAccount, id: string): Promise<string> {
  try {
    const info = await slackWebClient(account).users.info({ user: id });
    const user = info.user;
    return user?.profile?.display_name || user?.real_name || user?.name || id;
  } catch {
    return id;
  }
}
