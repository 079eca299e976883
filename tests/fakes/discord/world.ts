/**
 * The fake Discord's world: the bot's user, users, guilds with text channels, DM channels and their
 * messages, as Discord's v10 API spells them (discord-api-types' shapes). Ids are snowflakes made by
 * the fake's clock (ms since Discord's epoch, 2015, shifted 22 bits), unique and increasing.
 */
import type { APIGuild, APIMessage, APIUser } from "discord-api-types/v10";
import type { Clock } from "../../../core/base/mod.ts";

/** Discord's epoch, the first second of 2015, in ms since 1970. */
export const DISCORD_EPOCH = 1_420_070_400_000;
/** The most characters a message's content may have. */
export const DISCORD_TEXT_LIMIT = 2_000;

/** A guild text channel (type 0) or a DM (type 1), as GET channels/:id answers. */
export interface DiscordChannel {
  id: string;
  type: 0 | 1;
  last_message_id: string | null;
  flags: number;
  /** A guild channel's. */
  guild_id?: string;
  name?: string;
  position?: number;
  permission_overwrites?: unknown[];
  parent_id?: string | null;
  nsfw?: boolean;
  topic?: string | null;
  rate_limit_per_user?: number;
  /** A DM's: the user. */
  recipients?: APIUser[];
}

/** Users, guilds, channels and messages of one fake Discord. */
export class World {
  readonly users = new Map<string, APIUser>();
  readonly guilds = new Map<string, APIGuild>();
  readonly channels = new Map<string, DiscordChannel>();
  readonly messages = new Map<string, APIMessage[]>();
  readonly typing = new Map<string, number[]>();
  readonly botUser: APIUser;
  #clock: Clock;
  #increment = 0;
  #last = 0n;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.botUser = this.addUser("link_test", { bot: true, global_name: null });
  }

  /** A new snowflake, later than every one before it. */
  snowflake(): string {
    const ms = BigInt(Math.max(0, this.#clock.now() - DISCORD_EPOCH));
    let id = (ms << 22n) | BigInt(this.#increment++ & 0xfff);
    if (id <= this.#last) id = this.#last + 1n;
    this.#last = id;
    return id.toString();
  }

  /** Milliseconds since 1970, by the fake's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** The ISO time now, by the fake's clock, as messages' `timestamp`. */
  timestamp(): string {
    return new Date(this.#clock.now()).toISOString().replace("Z", "+00:00");
  }

  addUser(name: string, extra: Partial<APIUser> = {}): APIUser {
    const user: APIUser = {
      id: this.snowflake(),
      username: name,
      discriminator: "0",
      global_name: capitalized(name),
      avatar: null,
      ...extra,
    };
    this.users.set(user.id, user);
    return user;
  }

  addGuild(name: string): APIGuild {
    const id = this.snowflake();
    const guild = {
      id,
      name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: this.botUser.id,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [],
      emojis: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      preferred_locale: "en-US",
      public_updates_channel_id: null,
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      stickers: [],
      hub_type: null,
      incidents_data: null,
      region: "",
    } as unknown as APIGuild;
    this.guilds.set(id, guild);
    return guild;
  }

  addChannel(guild: APIGuild, name: string): DiscordChannel {
    const channel: DiscordChannel = {
      id: this.snowflake(),
      type: 0,
      guild_id: guild.id,
      name,
      position: [...this.channels.values()].filter((c) => c.guild_id === guild.id).length,
      permission_overwrites: [],
      parent_id: null,
      nsfw: false,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** The DM channel between `user` and the bot, opened once. */
  dmOf(user: APIUser): DiscordChannel {
    const open = [...this.channels.values()].find((c) => c.type === 1 && c.recipients?.[0]?.id === user.id);
    if (open) return open;
    const dm: DiscordChannel = {
      id: this.snowflake(),
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [structuredClone(user)],
    };
    this.channels.set(dm.id, dm);
    return dm;
  }

  historyOf(channelId: string): APIMessage[] {
    let list = this.messages.get(channelId);
    if (!list) this.messages.set(channelId, list = []);
    return list;
  }

  find(channelId: string, messageId: string): APIMessage | undefined {
    return this.historyOf(channelId).find((m) => m.id === messageId);
  }

  /** A new message by `author` in `channel`, stored, with `mentions` of the users its content names. */
  post(
    channel: DiscordChannel,
    author: APIUser,
    content: string,
    extra: Partial<APIMessage> = {},
  ): APIMessage {
    const message = {
      id: this.snowflake(),
      type: 0,
      channel_id: channel.id,
      author: structuredClone(author),
      content,
      timestamp: this.timestamp(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: this.mentionsIn(content),
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      flags: 0,
      components: [],
      ...extra,
    } as APIMessage;
    this.historyOf(channel.id).push(message);
    channel.last_message_id = message.id;
    return message;
  }

  /** The users `<@id>` (or `<@!id>`) names in `content`. */
  mentionsIn(content: string): APIUser[] {
    const ids = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
    return [...new Set(ids)].flatMap((id) => {
      const user = this.users.get(id);
      return user ? [structuredClone(user)] : [];
    });
  }
}

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
