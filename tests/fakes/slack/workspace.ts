/**
 * The fake Slack's workspace: its team, the app and its bot user, users, conversations (DMs `D…`,
 * channels `C…`) and their messages, as Slack's Web API and Events API spell them. Timestamps (`ts`)
 * are `seconds.micro` by the fake's clock, unique across the workspace.
 */
import type { Clock } from "../../../core/base/mod.ts";

/** A workspace user (users.info's `user`). */
export interface SlackUser {
  id: string;
  team_id: string;
  name: string;
  deleted: boolean;
  real_name: string;
  tz: string;
  tz_label: string;
  tz_offset: number;
  profile: { real_name: string; display_name: string; team: string; bot_id?: string };
  is_admin: boolean;
  is_owner: boolean;
  is_bot: boolean;
  is_app_user: boolean;
  updated: number;
  [field: string]: unknown;
}

/** A conversation: a DM with the bot (`im`) or a channel. */
export interface SlackConversation {
  id: string;
  /** `im` for a DM, `channel` for a channel; the events' `channel_type`. */
  type: "im" | "channel";
  name?: string;
  /** The user of a DM. */
  user?: string;
  members: string[];
}

/** A message as conversations.history and the events spell it. */
export interface SlackMessage {
  type: "message";
  ts: string;
  text: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  team?: string;
  subtype?: string;
  thread_ts?: string;
  edited?: { user: string; ts: string };
  blocks?: unknown[];
  reactions?: { name: string; users: string[]; count: number }[];
  [field: string]: unknown;
}

/** Ids of the fake's team, app and bot. */
export const TEAM_ID = "T0LINKTEAM";
export const TEAM_NAME = "Link Test";
export const APP_ID = "A0LINKAPP1";
export const BOT_USER_ID = "U0LINKBOT1";
export const BOT_ID = "B0LINKBOT1";

/** The users, conversations and messages of one workspace. */
export class Workspace {
  readonly users = new Map<string, SlackUser>();
  readonly conversations = new Map<string, SlackConversation>();
  readonly history = new Map<string, SlackMessage[]>();
  #clock: Clock;
  #nextUser = 1;
  #nextConversation = 1;
  #lastTs = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.users.set(BOT_USER_ID, userRecord(BOT_USER_ID, "link_test", "Link Test", this.#seconds(), true));
  }

  /** The bot's own user. */
  get botUser(): SlackUser {
    return this.users.get(BOT_USER_ID)!;
  }

  addUser(name: string, extra: Partial<SlackUser> = {}): SlackUser {
    const id = `U0${String(this.#nextUser++).padStart(8, "0")}`;
    const user = { ...userRecord(id, name, capitalized(name), this.#seconds(), false), ...extra };
    this.users.set(id, user);
    return user;
  }

  /** The DM between `userId` and the bot, opened once. */
  dmOf(userId: string): SlackConversation {
    const open = [...this.conversations.values()].find((c) => c.type === "im" && c.user === userId);
    if (open) return open;
    const dm: SlackConversation = {
      id: `D0${String(this.#nextConversation++).padStart(8, "0")}`,
      type: "im",
      user: userId,
      members: [userId, BOT_USER_ID],
    };
    this.conversations.set(dm.id, dm);
    return dm;
  }

  addChannel(name: string, members: string[]): SlackConversation {
    const channel: SlackConversation = {
      id: `C0${String(this.#nextConversation++).padStart(8, "0")}`,
      type: "channel",
      name,
      members: [...members, BOT_USER_ID],
    };
    this.conversations.set(channel.id, channel);
    return channel;
  }

  historyOf(channel: string): SlackMessage[] {
    let messages = this.history.get(channel);
    if (!messages) this.history.set(channel, messages = []);
    return messages;
  }

  find(channel: string, ts: string): SlackMessage | undefined {
    return this.historyOf(channel).find((m) => m.ts === ts);
  }

  /** A new ts, later than every one before it. */
  nextTs(): string {
    const micros = Math.max(this.#clock.now() * 1000, this.#lastTs + 1);
    this.#lastTs = micros;
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, "0")}`;
  }

  #seconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }
}

function userRecord(id: string, name: string, realName: string, updated: number, bot: boolean): SlackUser {
  return {
    id,
    team_id: TEAM_ID,
    name,
    deleted: false,
    real_name: realName,
    tz: "Europe/London",
    tz_label: "Greenwich Mean Time",
    tz_offset: 0,
    profile: {
      real_name: realName,
      display_name: bot ? "" : name,
      team: TEAM_ID,
      ...(bot ? { bot_id: BOT_ID } : {}),
    },
    is_admin: false,
    is_owner: false,
    is_bot: bot,
    is_app_user: false,
    updated,
  };
}

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
