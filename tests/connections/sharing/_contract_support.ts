import assert from "node:assert/strict";
import { join } from "node:path";
import { holdAnswer } from "../../../connections/link/mod.ts";
import { readKeptGroups } from "../../../connections/chat/mod.ts";
import { accessFor, type ChatAccess } from "../../../core/spec/mod.ts";
import type { FakeModel } from "../../fakes/fake_model.ts";
import type { HarnessFixture } from "../../support/harness_fixture.ts";

/** Who speaks: the paired owner, a member of the shared chat, someone unknown, another bot. */
export type Who = "owner" | "member" | "stranger" | "bot";
/** Where: the speaker's own DM with the bot, the chat to share, another chat the bot is in. */
export type Where = "dm" | "group" | "other";

/**
 * One platform under the sharing contract (ACS-7): its fake started with the four speakers and two
 * chats, the real client's share and carrier, a real Link Harness over a fake model.
 */
export interface SharingDriver extends AsyncDisposable {
  readonly connection: string;
  readonly stateDir: string;
  readonly model: FakeModel;
  readonly harness: HarnessFixture;
  /** `who` says `text` in `where`, mentioning the bot in a chat unless told not to. */
  say(who: Who, where: Where, text: string, options?: { mention?: boolean }): void;
  /** Resolves once the client has read everything said so far (a pairing's poll or acks). */
  settled(): Promise<void>;
  /** The platform's pair*Share for the owner. */
  share(
    options: { code: string; expiresAt: number; signal?: AbortSignal },
  ): Promise<{ chat: string; title: string }>;
  /** A chat's ID as `chat:<connection>:<id>` names it, and its title as a share says it. */
  chat(where: "group" | "other"): { id: string; title: string };
  /** A speaker's ID as `person:<connection>:<id>` names them. */
  person(who: Who): string;
  /** The ACP session of a place: `<connection>:<chat id>`; a DM is `who`'s. */
  thread(where: Where, who?: Who): string;
  /** Starts carrying with `access`; it stops when the driver is disposed. */
  carry(access: ChatAccess): Promise<void>;
  /** The texts the bot sent in a place (a DM: `who`'s), as they now read. */
  sentIn(where: Where, who?: Who): string[];
  /** Resolves once the bot's messages in a place read `text` last, moving the carrier's clock. */
  untilSent(where: Where, who: Who, text: string): Promise<void>;
  /** Resolves once the bot sent `text` in a place by the held answers' way, on no clock. */
  untilHeldSent(where: Where, who: Who, text: string): Promise<void>;
}

const CODE = "ABCD-EFGH";
const TEN_MINUTES = 10 * 60_000;

/** `[access] message` of a driver's connection: the chats and people named. */
function access(d: SharingDriver, chats: ("group" | "other")[], persons: Who[] = []): ChatAccess {
  return accessFor(d.connection, [
    ...chats.map((c) => `chat:${d.connection}:${d.chat(c).id}`),
    ...persons.map((p) => `person:${d.connection}:${d.person(p)}`),
  ]);
}

/** The messages a conversation kept, as `[text, from]`. */
async function kept(d: SharingDriver, thread: string): Promise<[string, string | undefined][]> {
  return (await d.harness.events(thread)).flatMap(({ event }) =>
    event.type === "message" ? [[event.text, event.from] as [string, string | undefined]] : []
  );
}

/** The one sharing contract, run for each platform's driver (ACS-7). */
export const SHARING_CASES: { name: string; run(d: SharingDriver): Promise<void> }[] = [
  {
    name: "the owner's mention with the code shares the chat",
    async run(d) {
      d.say("owner", "group", CODE);
      assert.deepEqual(await d.share({ code: CODE, expiresAt: Date.now() + TEN_MINUTES }), {
        chat: d.chat("group").id,
        title: d.chat("group").title,
      });
    },
  },
  {
    name: "a wrong code, the code in a DM, from a member, from a bot, or unmentioned never shares",
    async run(d) {
      d.say("owner", "group", "ABCD-EFGX");
      d.say("owner", "dm", CODE);
      d.say("member", "group", CODE);
      d.say("bot", "group", CODE);
      d.say("owner", "group", CODE, { mention: false });
      d.say("owner", "other", CODE);
      assert.deepEqual(await d.share({ code: CODE, expiresAt: Date.now() + TEN_MINUTES }), {
        chat: d.chat("other").id,
        title: d.chat("other").title,
      });
    },
  },
  {
    name: "the code after it expired never shares",
    async run(d) {
      d.say("owner", "group", CODE);
      await assert.rejects(d.share({ code: CODE, expiresAt: Date.now() - 1 }), { code: "TIMEOUT" });
    },
  },
  {
    name: "an owner who sent five wrong codes is no longer read",
    async run(d) {
      for (let i = 0; i < 5; i++) d.say("owner", "group", `WXYZ-234${i}`);
      d.say("owner", "group", CODE);
      const stop = new AbortController();
      const sharing = d.share({ code: CODE, expiresAt: Date.now() + TEN_MINUTES, signal: stop.signal });
      await d.settled();
      stop.abort();
      await assert.rejects(sharing, { name: "AbortError" });
    },
  },
  {
    name: "a member's mention is answered in the chat and kept as theirs; the owner's as the owner's",
    async run(d) {
      await d.carry(access(d, ["group"]));
      const first = d.model.reply("Hello, member");
      d.say("member", "group", "hi there");
      await first.done;
      await d.untilSent("group", "member", "Hello, member");
      const second = d.model.reply("Hello, owner");
      d.say("owner", "group", "and me");
      await second.done;
      await d.untilSent("group", "owner", "Hello, owner");
      const texts = (await kept(d, d.thread("group"))).map((
        [text, from],
      ) => [text.includes("hi there"), from]);
      assert.deepEqual(texts, [[true, `person:${d.connection}:${d.person("member")}`], [false, undefined]]);
      assert.deepEqual(await readKeptGroups(d.stateDir), [{
        thread: d.thread("group"),
        chat: d.chat("group").id,
      }]);
    },
  },
  {
    name: "a bot, an unshared chat, a stranger's DM and an unlisted member's DM are dropped",
    async run(d) {
      await d.carry(access(d, ["group"]));
      d.say("bot", "group", "hello bot");
      d.say("member", "other", "hello from elsewhere");
      d.say("member", "group", "not to the bot", { mention: false });
      d.say("stranger", "dm", "let me in");
      d.say("member", "dm", "just me");
      const reply = d.model.reply("pong");
      d.say("owner", "dm", "ping");
      await reply.done;
      await d.untilSent("dm", "owner", "pong");
      assert.equal(d.model.requests.length, 1);
      assert.deepEqual(
        [d.sentIn("group"), d.sentIn("other"), d.sentIn("dm", "stranger"), d.sentIn("dm", "member")],
        [[], [], [], []],
      );
      assert.deepEqual(await kept(d, d.thread("dm", "owner")), [["ping", undefined]]);
      assert.deepEqual(await readKeptGroups(d.stateDir), []);
    },
  },
  {
    name: "an allowlisted person's DM is answered with from, in their own conversation",
    async run(d) {
      await d.carry(access(d, [], ["member"]));
      const reply = d.model.reply("Hi, listed member");
      d.say("member", "dm", "am I in?");
      await reply.done;
      await d.untilSent("dm", "member", "Hi, listed member");
      assert.deepEqual(await kept(d, d.thread("dm", "member")), [[
        "am I in?",
        `person:${d.connection}:${d.person("member")}`,
      ]]);
      assert.deepEqual(await kept(d, d.thread("dm", "owner")), []);
    },
  },
  {
    name: "a held answer goes to a kept group, and for a group nobody talked in to the owner",
    async run(d) {
      await d.carry(access(d, ["group", "other"]));
      const reply = d.model.reply("Noted");
      d.say("member", "group", "remind us");
      await reply.done;
      await d.untilSent("group", "member", "Noted");
      const held = join(d.stateDir, "held");
      await holdAnswer(held, { thread: d.thread("group"), text: "Reminder for the group", at: 1 });
      await d.untilHeldSent("group", "member", "Reminder for the group");
      await holdAnswer(held, { thread: d.thread("other"), text: "Reminder for the other chat", at: 2 });
      await d.untilHeldSent("dm", "owner", "Reminder for the other chat");
      assert.deepEqual([d.sentIn("other"), d.sentIn("dm", "owner")], [[], ["Reminder for the other chat"]]);
    },
  },
];
