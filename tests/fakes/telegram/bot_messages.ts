/** What the fake Telegram's bot does to messages: send, edit, react, delete, and show typing. */
import type { FakeChats } from "./chats.ts";
import { withoutReply } from "./chats.ts";
import { renderText, type TgEntity } from "./rendered_text.ts";
import type { TgMessage, TgUser } from "./types.ts";
import {
  badRequest,
  boolParam,
  intParam,
  jsonParam,
  NOT_MODIFIED,
  stringParam,
  TELEGRAM_TEXT_LIMIT,
} from "./wire.ts";

/** The world a bot's call acts on: the chats, the bot itself, and the time in Telegram's seconds. */
export interface BotWorld {
  readonly chats: FakeChats;
  readonly bot: TgUser;
  seconds(): number;
}

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

/** The emoji a bot may react with, as the Bot API's ReactionTypeEmoji lists them. */
const REACTION_EMOJI = new Set([
  ..."❤👍👎🔥🥰👏😁🤔🤯😱🤬😢🎉🤩🤮💩🙏👌🕊🤡🥱🥴😍🐳🌚🌭💯🤣⚡🍌🏆💔🤨😐🍓🍾💋🖕😈😴😭🤓👻👀🎃🙈😇😨🤝✍🤗🫡🎅🎄☃💅🤪🗿🆒💘🙉🦄😘💊🙊😎👾🤷😡",
  "❤‍🔥",
  "🌚",
  "👨‍💻",
  "🤷‍♂",
  "🤷‍♀",
]);

/** sendChatAction: the chat must be there and the action one Telegram knows. */
export function sendChatAction(world: BotWorld, p: Record<string, unknown>): true {
  world.chats.chatParam(p);
  const action = stringParam(p, "action");
  if (action === undefined || !CHAT_ACTIONS.has(action)) {
    throw badRequest("wrong parameter action in request");
  }
  return true;
}

/** setMessageReaction: each reaction an emoji of Telegram's list, kept on the message. */
export function setMessageReaction(world: BotWorld, p: Record<string, unknown>): true {
  const chat = world.chats.chatParam(p);
  const message = world.chats.messageParam(chat, p, "MESSAGE_ID_INVALID");
  const reaction = jsonParam(p, "reaction") ?? [];
  if (!Array.isArray(reaction)) throw badRequest('field "reaction" must be an Array');
  for (const r of reaction as { type?: unknown; emoji?: unknown }[]) {
    if (r?.type !== "emoji" || typeof r.emoji !== "string" || !REACTION_EMOJI.has(r.emoji)) {
      throw badRequest("REACTION_INVALID");
    }
  }
  message.bot_reaction = reaction;
  return true;
}

/** deleteMessage: the message leaves its chat's history. */
export function deleteMessage(world: BotWorld, p: Record<string, unknown>): true {
  const chat = world.chats.chatParam(p);
  const message = world.chats.messageParam(chat, p, "message to delete not found");
  const history = world.chats.historyOf(chat.id);
  history.splice(history.indexOf(message), 1);
  return true;
}

/** sendMessage: rendered as Telegram renders it, replying where asked, with the chat's next id. */
export function sendMessage(world: BotWorld, p: Record<string, unknown>): TgMessage {
  const { chats } = world;
  const chat = chats.chatParam(p);
  const rendered = renderedParam(p);
  const message: TgMessage = {
    message_id: 0,
    from: world.bot,
    chat,
    date: world.seconds(),
    text: rendered.text,
  };
  if (rendered.entities.length > 0) message.entities = rendered.entities;
  const reply = jsonParam(p, "reply_parameters") as
    | { message_id?: unknown; chat_id?: unknown; allow_sending_without_reply?: unknown }
    | undefined;
  const replyTo = typeof reply?.message_id === "number"
    ? reply.message_id
    : intParam(p, "reply_to_message_id");
  if (replyTo !== undefined) {
    const replyChat = reply?.chat_id === undefined ? chat : chats.chatOfParam(reply.chat_id);
    const target = chats.historyOf(replyChat.id).find((m) => m.message_id === replyTo);
    const lenient = reply?.allow_sending_without_reply === true ||
      boolParam(p, "allow_sending_without_reply");
    if (target) message.reply_to_message = withoutReply(target);
    else if (!lenient) throw badRequest("message to be replied not found");
  }
  const markup = jsonParam(p, "reply_markup");
  if (markup !== undefined) message.reply_markup = markup;
  message.message_id = chats.nextMessageId(chat.id);
  chats.historyOf(chat.id).push(message);
  return structuredClone(message);
}

/** editMessageText: only the bot's own messages, and "message is not modified" for the same text. */
export function editMessageText(world: BotWorld, p: Record<string, unknown>): TgMessage | true {
  if (p.inline_message_id !== undefined) throw badRequest("MESSAGE_ID_INVALID");
  const chat = world.chats.chatParam(p);
  const message = world.chats.messageParam(chat, p, "message to edit not found");
  if (message.from?.id !== world.bot.id) throw badRequest("message can't be edited");
  const rendered = renderedParam(p, "MESSAGE_TOO_LONG");
  const markup = jsonParam(p, "reply_markup");
  const sameText = message.text === rendered.text &&
    JSON.stringify(message.entities ?? []) === JSON.stringify(rendered.entities);
  const sameMarkup = JSON.stringify(message.reply_markup) === JSON.stringify(markup);
  if (sameText && sameMarkup) throw badRequest(NOT_MODIFIED.slice("Bad Request: ".length));
  message.text = rendered.text;
  if (rendered.entities.length > 0) message.entities = rendered.entities;
  else delete message.entities;
  if (markup !== undefined) message.reply_markup = markup;
  else delete message.reply_markup;
  message.edit_date = world.seconds();
  return structuredClone(message);
}

/** The text parameter rendered; too long is "message is too long" when sent, MESSAGE_TOO_LONG when edited. */
function renderedParam(p: Record<string, unknown>, tooLong = "message is too long"): {
  text: string;
  entities: TgEntity[];
} {
  const rendered = renderText(stringParam(p, "text") ?? "", stringParam(p, "parse_mode"));
  if (!rendered.ok) throw badRequest(rendered.reason);
  if (rendered.text.trim() === "") throw badRequest("message text is empty");
  if (rendered.text.length > TELEGRAM_TEXT_LIMIT) throw badRequest(tooLong);
  return rendered;
}
