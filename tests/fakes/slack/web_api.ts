/**
 * The Web API methods the fake serves, over its workspace: each takes the call's parameters and
 * returns the fields of `{"ok":true,…}`, or throws SlackApiError with Slack's error code.
 */
import {
  APP_ID,
  BOT_ID,
  BOT_USER_ID,
  type SlackConversation,
  type SlackMessage,
  TEAM_ID,
  TEAM_NAME,
  type Workspace,
} from "./workspace.ts";

/** Slack keeps the first 40,000 characters of a message's text and drops the rest. */
export const SLACK_TEXT_LIMIT = 40_000;

/** An `{"ok":false,"error":…}` answer. */
export class SlackApiError extends Error {
  constructor(readonly error: string) {
    super(error);
  }
}

/** The methods the fake knows, and the kind of token each takes. */
export const METHODS: Record<string, "bot" | "app"> = {
  "auth.test": "bot",
  "apps.connections.open": "app",
  "chat.postMessage": "bot",
  "chat.update": "bot",
  "reactions.add": "bot",
  "reactions.remove": "bot",
  "conversations.open": "bot",
  "conversations.info": "bot",
  "users.info": "bot",
};

/** What a method did that the app hears about as events. */
export interface WebApiEffects {
  posted(conversation: SlackConversation, message: SlackMessage): void;
  changed(conversation: SlackConversation, previous: SlackMessage, message: SlackMessage): void;
  /** A ws url for apps.connections.open. */
  socketUrl(): string;
}

type Params = Record<string, unknown>;

/** Runs `method` (known, with a token of the right kind) for the app. */
export function runMethod(ws: Workspace, method: string, p: Params, effects: WebApiEffects): Params {
  switch (method) {
    case "auth.test":
      return {
        url: "https://link-test.slack.com/",
        team: TEAM_NAME,
        user: ws.botUser.name,
        team_id: TEAM_ID,
        user_id: BOT_USER_ID,
        bot_id: BOT_ID,
        is_enterprise_install: false,
      };
    case "apps.connections.open":
      return { url: effects.socketUrl() };
    case "chat.postMessage":
      return postMessage(ws, p, effects);
    case "chat.update":
      return update(ws, p, effects);
    case "reactions.add":
    case "reactions.remove":
      react(ws, p, method === "reactions.add");
      return {};
    case "conversations.open":
      return openConversation(ws, p);
    case "conversations.info": {
      const known = ws.conversations.get(stringParam(p, "channel") ?? "");
      if (!known) throw new SlackApiError("channel_not_found");
      const { members: _members, ...channel } = structuredClone(known);
      return { channel: { ...channel, is_channel: known.type === "channel", is_im: known.type === "im" } };
    }
    case "users.info": {
      const user = ws.users.get(stringParam(p, "user") ?? "");
      if (!user) throw new SlackApiError("user_not_found");
      return { user: structuredClone(user) };
    }
  }
  throw new SlackApiError("unknown_method");
}

function postMessage(ws: Workspace, p: Params, effects: WebApiEffects): Params {
  const conversation = conversationParam(ws, p, "channel");
  const text = textParam(p);
  const message: SlackMessage = {
    user: BOT_USER_ID,
    type: "message",
    ts: ws.nextTs(),
    bot_id: BOT_ID,
    app_id: APP_ID,
    text,
    team: TEAM_ID,
  };
  const blocks = jsonParam(p, "blocks");
  if (Array.isArray(blocks)) message.blocks = blocks;
  const thread = stringParam(p, "thread_ts");
  if (thread !== undefined && thread !== "") {
    if (!ws.find(conversation.id, thread)) throw new SlackApiError("thread_not_found");
    message.thread_ts = thread;
  }
  ws.historyOf(conversation.id).push(message);
  effects.posted(conversation, structuredClone(message));
  return { channel: conversation.id, ts: message.ts, message: structuredClone(message) };
}

function update(ws: Workspace, p: Params, effects: WebApiEffects): Params {
  const conversation = conversationParam(ws, p, "channel");
  const ts = stringParam(p, "ts");
  const message = ts === undefined ? undefined : ws.find(conversation.id, ts);
  if (!message) throw new SlackApiError("message_not_found");
  if (message.bot_id !== BOT_ID) throw new SlackApiError("cant_update_message");
  const previous = structuredClone(message);
  message.text = textParam(p);
  const blocks = jsonParam(p, "blocks");
  if (Array.isArray(blocks)) message.blocks = blocks;
  message.edited = { user: BOT_USER_ID, ts: ws.nextTs() };
  effects.changed(conversation, previous, structuredClone(message));
  return {
    channel: conversation.id,
    ts: message.ts,
    text: message.text,
    message: { ...structuredClone(message), edited: undefined },
  };
}

function react(ws: Workspace, p: Params, add: boolean): void {
  const conversation = conversationParam(ws, p, "channel");
  const name = stringParam(p, "name") ?? "";
  if (name === "") throw new SlackApiError("no_item_specified");
  if (!/^[a-z0-9_+'-]+$/.test(name)) throw new SlackApiError("invalid_name");
  const message = ws.find(conversation.id, stringParam(p, "timestamp") ?? "");
  if (!message) throw new SlackApiError("message_not_found");
  const reactions = message.reactions ?? [];
  const reaction = reactions.find((r) => r.name === name);
  const mine = reaction?.users.includes(BOT_USER_ID) ?? false;
  if (add) {
    if (mine) throw new SlackApiError("already_reacted");
    if (reaction) reaction.users.push(BOT_USER_ID), reaction.count++;
    else reactions.push({ name, users: [BOT_USER_ID], count: 1 });
    message.reactions = reactions;
    return;
  }
  if (!reaction || !mine) throw new SlackApiError("no_reaction");
  reaction.users = reaction.users.filter((u) => u !== BOT_USER_ID);
  reaction.count--;
  message.reactions = reactions.filter((r) => r.count > 0);
  if (message.reactions.length === 0) delete message.reactions;
}

function openConversation(ws: Workspace, p: Params): Params {
  const channel = stringParam(p, "channel");
  if (channel !== undefined && channel !== "") {
    const known = ws.conversations.get(channel);
    if (!known) throw new SlackApiError("channel_not_found");
    return { no_op: true, already_open: true, channel: { id: known.id } };
  }
  const users = (stringParam(p, "users") ?? "").split(",").map((u) => u.trim()).filter((u) => u !== "");
  if (users.length === 0) throw new SlackApiError("users_list_not_supplied");
  if (users.length > 1) throw new SlackApiError("not_enough_users");
  const user = ws.users.get(users[0]!);
  if (!user) throw new SlackApiError("user_not_found");
  const existing = [...ws.conversations.values()].some((c) => c.type === "im" && c.user === user.id);
  const dm = ws.dmOf(user.id);
  return existing ? { no_op: true, already_open: true, channel: { id: dm.id } } : { channel: { id: dm.id } };
}

/** A channel parameter: a conversation id, or a user id (posting to their DM). */
function conversationParam(ws: Workspace, p: Params, name: string): SlackConversation {
  const id = stringParam(p, name) ?? "";
  if (id === "") throw new SlackApiError("channel_not_found");
  const conversation = ws.conversations.get(id);
  if (conversation) return conversation;
  if (ws.users.has(id)) return ws.dmOf(id);
  throw new SlackApiError("channel_not_found");
}

function textParam(p: Params): string {
  const text = stringParam(p, "text") ?? "";
  const blocks = jsonParam(p, "blocks");
  const attachments = jsonParam(p, "attachments");
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (text === "" && !hasBlocks && !hasAttachments) throw new SlackApiError("no_text");
  return text.length > SLACK_TEXT_LIMIT ? text.slice(0, SLACK_TEXT_LIMIT) : text;
}

/** A parameter as a string, whatever the body's encoding made of it. */
export function stringParam(p: Params, name: string): string | undefined {
  const value = p[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : String(value);
}

/** A parameter the Web API takes JSON-encoded in a form: parsed when it came as a string. */
function jsonParam(p: Params, name: string): unknown {
  const value = p[name];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
