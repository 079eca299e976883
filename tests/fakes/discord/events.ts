/**
 * The Gateway's message events as Discord v10 sends them, and who sees them by intents:
 * MESSAGE_CREATE and MESSAGE_UPDATE (the whole message, with `guild_id` and `member` in a guild) and
 * MESSAGE_DELETE, seen with GUILD_MESSAGES in a guild and DIRECT_MESSAGES in a DM. Without the
 * MESSAGE_CONTENT intent a guild message reads empty unless it mentions the bot or is the bot's own.
 */
import type { APIGuild, APIMessage, APIUser } from "discord-api-types/v10";
import type { DispatchView } from "./gateway.ts";
import type { DiscordChannel, World } from "./world.ts";

/** The intent bits the fake reads (GatewayIntentBits). */
export const INTENTS = {
  guilds: 1 << 0,
  guildMessages: 1 << 9,
  directMessages: 1 << 12,
  messageContent: 1 << 15,
} as const;

/** What MESSAGE_CREATE or MESSAGE_UPDATE shows of `message` in `channel`. */
export function messageView(channel: DiscordChannel, message: APIMessage, bot: APIUser): DispatchView {
  return (intents) => {
    const inGuild = channel.guild_id !== undefined;
    if (!(intents & (inGuild ? INTENTS.guildMessages : INTENTS.directMessages))) return undefined;
    const d = structuredClone(message) as unknown as Record<string, unknown>;
    if (inGuild) {
      d.guild_id = channel.guild_id;
      d.member = memberOf(message.timestamp);
    }
    const seesContent = !inGuild || (intents & INTENTS.messageContent) !== 0 ||
      message.author.id === bot.id || message.mentions.some((u) => u.id === bot.id);
    if (!seesContent) Object.assign(d, { content: "", embeds: [], attachments: [], components: [] });
    return d;
  };
}

/** What MESSAGE_DELETE shows. */
export function deleteView(channel: DiscordChannel, message: APIMessage): DispatchView {
  return (intents) => {
    const inGuild = channel.guild_id !== undefined;
    if (!(intents & (inGuild ? INTENTS.guildMessages : INTENTS.directMessages))) return undefined;
    return inGuild
      ? { id: message.id, channel_id: channel.id, guild_id: channel.guild_id }
      : { id: message.id, channel_id: channel.id };
  };
}

/** READY's `d` and the GUILD_CREATE of each guild after it, as a new session gets them. */
export function readyOf(
  world: World,
  options: { sessionId: string; resumeUrl: string; intents: number },
): { d: Record<string, unknown>; then: [string, unknown][] } {
  const guilds = [...world.guilds.values()];
  const d = {
    v: 10,
    user_settings: {},
    user: { ...structuredClone(world.botUser), flags: 0, mfa_enabled: false, verified: true },
    guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
    guild_join_requests: [],
    relationships: [],
    private_channels: [],
    presences: [],
    session_id: options.sessionId,
    session_type: "normal",
    resume_gateway_url: options.resumeUrl,
    shard: [0, 1],
    application: { id: world.botUser.id, flags: 0 },
    auth: {},
    geo_ordered_rtc_regions: [],
    _trace: ['["gateway-prd-fake-1",{"micros":0}]'],
  };
  const then: [string, unknown][] = (options.intents & INTENTS.guilds)
    ? guilds.map((g) => ["GUILD_CREATE", guildCreate(world, g)])
    : [];
  return { d, then };
}

function guildCreate(world: World, guild: APIGuild): Record<string, unknown> {
  const channels = [...world.channels.values()].filter((c) => c.guild_id === guild.id).map((c) => {
    const { guild_id: _, ...rest } = c;
    return rest;
  });
  return {
    ...structuredClone(guild),
    joined_at: world.timestamp(),
    large: false,
    unavailable: false,
    member_count: world.users.size,
    members: [],
    channels,
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

function memberOf(joinedAt: string): Record<string, unknown> {
  return {
    roles: [],
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    nick: null,
    avatar: null,
    banner: null,
    communication_disabled_until: null,
  };
}
