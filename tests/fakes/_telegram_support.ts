/**
 * grammY's Api pointed at the fake, for the fake's own tests, and the owner Ada's private chat.
 */
// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { type FakeTelegram, type TgChat, type TgUser } from "./fake_telegram.ts";
import assert from "node:assert/strict";
import { Api, GrammyError } from "grammy";

/** grammY's Api with `token`, on the fake. */
export function apiOf(tg: FakeTelegram, token = tg.token): Api {
  return new Api(token, { apiRoot: tg.apiRoot });
}

/** Ada, and her private chat with the bot. */
export function owner(tg: FakeTelegram): { ada: TgUser; chat: TgChat } {
  const ada = tg.user("Ada", { username: "ada" });
  return { ada, chat: tg.privateChat(ada) };
}

/** The GrammyError `promise` rejects with. */
export async function grammyError(promise: Promise<unknown>): Promise<GrammyError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof GrammyError, `expected a GrammyError, got ${err}`);
  return err;
}
