/**
 * The REST routes of Discord v10 the fake serves, answered as Discord does: the object as JSON, 204
 * for typing, and errors as `{"message","code"}` (with `errors` for an invalid form body) with
 * Discord's HTTP status and JSON error codes (10003 Unknown Channel, 10008 Unknown Message, 50035).
 */
import type { APIMessage } from "discord-api-types/v10";
import { DISCORD_TEXT_LIMIT, type DiscordChannel, type World } from "./world.ts";

/** The routes, named by method and template. */
export type FakeDiscordRoute =
  | "GET /users/@me"
  | "GET /gateway"
  | "GET /gateway/bot"
  | "POST /users/@me/channels"
  | "GET /channels/:id"
  | "GET /channels/:id/messages"
  | "POST /channels/:id/messages"
  | "GET /channels/:id/messages/:mid"
  | "PATCH /channels/:id/messages/:mid"
  | "DELETE /channels/:id/messages/:mid"
  | "POST /channels/:id/typing";

const PATTERNS: [FakeDiscordRoute, RegExp][] = [
  ["GET /users/@me", /^\/users\/@me$/],
  ["GET /gateway", /^\/gateway$/],
  ["GET /gateway/bot", /^\/gateway\/bot$/],
  ["POST /users/@me/channels", /^\/users\/@me\/channels$/],
  ["GET /channels/:id", /^\/channels\/(?<id>[^/]+)$/],
  ["GET /channels/:id/messages", /^\/channels\/(?<id>[^/]+)\/messages$/],
  ["POST /channels/:id/messages", /^\/channels\/(?<id>[^/]+)\/messages$/],
  ["GET /channels/:id/messages/:mid", /^\/channels\/(?<id>[^/]+)\/messages\/(?<mid>[^/]+)$/],
  ["PATCH /channels/:id/messages/:mid", /^\/channels\/(?<id>[^/]+)\/messages\/(?<mid>[^/]+)$/],
  ["DELETE /channels/:id/messages/:mid", /^\/channels\/(?<id>[^/]+)\/messages\/(?<mid>[^/]+)$/],
  ["POST /channels/:id/typing", /^\/channels\/(?<id>[^/]+)\/typing$/],
];

/** Routes that need no `Authorization`. */
export const UNAUTHENTICATED = new Set<FakeDiscordRoute>(["GET /gateway"]);

/** The route a request names, with its parameters, or undefined. */
export function matchRoute(
  method: string,
  path: string,
): { route: FakeDiscordRoute; params: Record<string, string> } | undefined {
  for (const [route, pattern] of PATTERNS) {
    if (!route.startsWith(`${method} `)) continue;
    const match = pattern.exec(path);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}

/** An answer: HTTP status and JSON body (undefined for 204). */
export interface RestAnswer {
  status: number;
  body: unknown;
}

/** What a route does beyond the world: the gateway hears of messages. */
export interface RestEffects {
  created(channel: DiscordChannel, message: APIMessage): void;
  updated(channel: DiscordChannel, message: APIMessage): void;
  deleted(channel: DiscordChannel, message: APIMessage): void;
  gatewayUrl(): string;
  identifiesLeft(): number;
}

/** Discord's error body with its status. */
export function apiError(status: number, code: number, message: string, errors?: unknown): RestAnswer {
  return { status, body: errors === undefined ? { message, code } : { message, code, errors } };
}

export const UNAUTHORIZED: RestAnswer = apiError(401, 0, "401: Unauthorized");
const UNKNOWN_CHANNEL = apiError(404, 10003, "Unknown Channel");
const UNKNOWN_MESSAGE = apiError(404, 10008, "Unknown Message");

/** Runs `route` on `world`. */
export function runRoute(
  world: World,
  call: {
    route: FakeDiscordRoute;
    params: Record<string, string>;
    query: Record<string, string>;
    body: unknown;
  },
  effects: RestEffects,
): RestAnswer {
  const body = (call.body ?? {}) as Record<string, unknown>;
  switch (call.route) {
    case "GET /users/@me":
      return ok({
        ...world.botUser,
        flags: 0,
        mfa_enabled: false,
        verified: true,
        banner: null,
        locale: "en-US",
      });
    case "GET /gateway":
      return ok({ url: effects.gatewayUrl() });
    case "GET /gateway/bot":
      return ok({
        url: effects.gatewayUrl(),
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: effects.identifiesLeft(),
          reset_after: 86_400_000,
          max_concurrency: 1,
        },
      });
    case "POST /users/@me/channels":
      return openDm(world, body.recipient_id);
    default:
      return channelRoute(world, { ...call, body }, effects);
  }
}

/** How long Discord keeps a message's nonce for enforce_nonce: "the past few minutes". */
const NONCE_KEPT_MS = 5 * 60_000;

function channelRoute(
  world: World,
  call: {
    route: FakeDiscordRoute;
    params: Record<string, string>;
    query: Record<string, string>;
    body: Record<string, unknown>;
  },
  effects: RestEffects,
): RestAnswer {
  const { route, params, body } = call;
  const channel = world.channels.get(params.id ?? "");
  if (!channel) return UNKNOWN_CHANNEL;
  if (route === "GET /channels/:id") return ok(channel);
  if (route === "GET /channels/:id/messages") return history(world, channel, call.query);
  if (route === "POST /channels/:id/typing") {
    const list = world.typing.get(channel.id) ?? [];
    world.typing.set(channel.id, [...list, world.now()]);
    return { status: 204, body: undefined };
  }
  if (route === "POST /channels/:id/messages") {
    const invalid = invalidContent(body, true);
    if (invalid) return invalid;
    const nonce = body.nonce;
    if (
      nonce !== undefined &&
      (typeof nonce !== "string" && typeof nonce !== "number" || String(nonce).length > 25)
    ) {
      return apiError(400, 50035, "Invalid Form Body");
    }
    // enforce_nonce: the same author's message with this nonce, made in the last few minutes, is
    // answered again and no new one made.
    if (body.enforce_nonce === true && nonce !== undefined) {
      const made = world.historyOf(channel.id).find((m) =>
        m.author.id === world.botUser.id && m.nonce === nonce &&
        world.now() - Date.parse(m.timestamp) < NONCE_KEPT_MS
      );
      if (made) return ok(made);
    }
    const message = world.post(channel, world.botUser, String(body.content ?? ""), extraOf(body, channel.id));
    effects.created(channel, message);
    return ok(message);
  }
  const message = world.find(channel.id, params.mid ?? "");
  if (!message) return UNKNOWN_MESSAGE;
  if (route === "GET /channels/:id/messages/:mid") return ok(message);
  if (message.author.id !== world.botUser.id) {
    return route === "DELETE /channels/:id/messages/:mid"
      ? apiError(403, 50013, "Missing Permissions")
      : apiError(403, 50005, "Cannot edit a message authored by another user");
  }
  if (route === "DELETE /channels/:id/messages/:mid") {
    const history = world.historyOf(channel.id);
    history.splice(history.indexOf(message), 1);
    effects.deleted(channel, message);
    return { status: 204, body: undefined };
  }
  const invalid = invalidContent(body, false);
  if (invalid) return invalid;
  if (typeof body.content === "string") {
    message.content = body.content;
    message.mentions = world.mentionsIn(body.content);
  }
  if (Array.isArray(body.embeds)) message.embeds = body.embeds;
  message.edited_timestamp = world.timestamp();
  effects.updated(channel, message);
  return ok(message);
}

/** A channel's messages, newest first: `limit` (1–100, 50 unless told), `after` or `before` an id. */
function history(world: World, channel: DiscordChannel, query: Record<string, string>): RestAnswer {
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return formError("limit", "NUMBER_TYPE_MAX", "int value should be less than or equal to 100.");
  }
  let messages = [...world.historyOf(channel.id)];
  if (query.after) messages = messages.filter((m) => BigInt(m.id) > BigInt(query.after!));
  if (query.before) messages = messages.filter((m) => BigInt(m.id) < BigInt(query.before!));
  // After an id Discord answers the oldest `limit` after it; otherwise the newest; newest first either way.
  const chosen = query.after ? messages.slice(0, limit) : messages.slice(-limit);
  return ok(chosen.reverse());
}

function openDm(world: World, recipient: unknown): RestAnswer {
  if (typeof recipient !== "string" || !/^\d{1,20}$/.test(recipient)) {
    return apiError(400, 50035, "Invalid Form Body", {
      recipient_id: {
        _errors: [{ code: "NUMBER_TYPE_COERCE", message: `Value "${String(recipient)}" is not snowflake.` }],
      },
    });
  }
  const user = world.users.get(recipient);
  if (!user || user.id === world.botUser.id) return apiError(400, 50007, "Cannot send messages to this user");
  return ok(world.dmOf(user));
}

/** 50035 for content over 2,000 characters or not a string; 50006 for an empty new message. */
function invalidContent(body: Record<string, unknown>, creating: boolean): RestAnswer | undefined {
  const content = body.content;
  if (content !== undefined && content !== null && typeof content !== "string") {
    return formError("content", "STRING_TYPE_CONVERT", "Could not interpret value as string.");
  }
  if (typeof content === "string" && [...content].length > DISCORD_TEXT_LIMIT) {
    return formError("content", "BASE_TYPE_MAX_LENGTH", `Must be ${DISCORD_TEXT_LIMIT} or fewer in length.`);
  }
  const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
  if (creating && !content && !hasEmbeds) return apiError(400, 50006, "Cannot send an empty message");
  return undefined;
}

function formError(field: string, code: string, message: string): RestAnswer {
  return apiError(400, 50035, "Invalid Form Body", { [field]: { _errors: [{ code, message }] } });
}

function extraOf(body: Record<string, unknown>, channelId: string): Partial<APIMessage> {
  const extra: Partial<APIMessage> = {};
  if (Array.isArray(body.embeds)) extra.embeds = body.embeds;
  if (typeof body.nonce === "string" || typeof body.nonce === "number") extra.nonce = body.nonce;
  const reference = body.message_reference as { message_id?: string; channel_id?: string } | undefined;
  if (reference?.message_id) {
    extra.message_reference = {
      type: 0,
      message_id: reference.message_id,
      channel_id: reference.channel_id ?? channelId,
    };
    extra.type = 19;
  }
  return extra;
}

function ok(body: unknown): RestAnswer {
  return { status: 200, body: structuredClone(body) };
}
