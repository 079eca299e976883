/**
 * A Discord carrier for the owner Ada over the fake Discord, a real Link Harness and a fake model,
 * for the tests of tests/connections/discord/: the carrier on its own FakeClock, the fake on the
 * system clock with buckets wide enough that the REST client never waits, unless a test says.
 */
import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import {
  carryDiscord,
  type DiscordAccount,
  type DiscordState,
  inboxDir,
} from "../../../connections/discord/mod.ts";
import {
  type DiscordChannel,
  type FakeDiscord,
  type FakeDiscordOptions,
  serveFakeDiscord,
} from "../../fakes/fake_discord.ts";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import { type HarnessFixture, harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";

/** Buckets no test fills: the REST client's own waits are tested where a test asks for them. */
export const WIDE_RATE_LIMIT = { limit: 100_000, windowMs: 1000 };

/** Moves the clock on a second at a time until `done` holds: edits and typing wait by the clock. */
export async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 20_000 && !done(); i++) await clock.advance(1000);
  assert.ok(done(), "the awaited state never came");
}

export function inboxEmpty(stateDir: string): boolean {
  try {
    return [...Deno.readDirSync(inboxDir(stateDir))].length === 0;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return true;
    throw err;
  }
}

export function accountOf(fake: FakeDiscord): DiscordAccount {
  return { apiUrl: fake.apiUrl, token: new Secret(fake.token) };
}

/** The texts the bot posted in a channel, as they now read. */
export function botTexts(fake: FakeDiscord, channel: { id: string }): string[] {
  const botId = fake.bot.id;
  return fake.messages(channel.id).filter((m) => m.author.id === botId).map((m) => m.content);
}

/** What the model was asked: each request's user messages. */
export function userTexts(model: FakeModel, i: number): unknown[] {
  const body = model.requests[i]!.body as { messages: { role: string; content: unknown }[] };
  return body.messages.filter((m) => m.role === "user").map((m) => m.content);
}

export interface CarrierOptions {
  fake?: FakeDiscordOptions;
  /** Who is answered besides the owner; `#general` of the guild `home` is made and shared unless given. */
  access?: (fake: FakeDiscord, general: DiscordChannel) => ChatAccess;
  /** Leaves the connection's folder as a crash left it, before the carrier starts. */
  before?: (
    t: { fake: FakeDiscord; owner: ReturnType<FakeDiscord["user"]>; dm: DiscordChannel; stateDir: string },
  ) => Promise<void>;
}

export interface Carrier extends AsyncDisposable {
  fake: FakeDiscord;
  model: FakeModel;
  harness: HarnessFixture;
  stateDir: string;
  clock: FakeClock;
  owner: ReturnType<FakeDiscord["user"]>;
  dm: DiscordChannel;
  /** `#general` of the guild `home`. */
  general: DiscordChannel;
  states: DiscordState[];
  /** The texts the bot posted in the owner's DM. */
  answers(): string[];
  /** Resolves once a state said so far matches. */
  stateWhen(check: (s: DiscordState) => boolean): Promise<DiscordState>;
  /** Stops the carrier and waits for it, once. */
  stop(): Promise<void>;
}

/** A carrier for Ada, connected (READY seen by the fake) before it returns. */
export async function carrier(options: CarrierOptions = {}): Promise<Carrier> {
  const fake = await serveFakeDiscord({ rateLimit: WIDE_RATE_LIMIT, echoBotMessages: true, ...options.fake });
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-discord-" });
  const clock = new FakeClock();
  const owner = fake.user("ada");
  const dm = fake.dm(owner);
  const home = fake.guild("home");
  const general = fake.channel(home, "general");
  const access = options.access?.(fake, general) ??
    { chats: new Set([`${home.id}:${general.id}`]), persons: new Set<string>() };
  const states: DiscordState[] = [];
  const waiters: { check: (s: DiscordState) => boolean; resolve: (s: DiscordState) => void }[] = [];
  const stateWhen = (check: (s: DiscordState) => boolean) => {
    const found = states.find(check);
    if (found) return Promise.resolve(found);
    const { promise, resolve } = Promise.withResolvers<DiscordState>();
    waiters.push({ check, resolve });
    return promise;
  };
  const onState = (s: DiscordState) => {
    states.push(s);
    for (const w of waiters.filter((w) => w.check(s))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(s);
    }
  };
  await options.before?.({ fake, owner, dm, stateDir });
  const controller = new AbortController();
  const carrying = carryDiscord({
    account: accountOf(fake),
    stateDir,
    ownerId: owner.id,
    access,
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: controller.signal,
    onState,
  });
  let stopped: Promise<void> | undefined;
  const stop = () => stopped ??= (controller.abort(), carrying);
  await stateWhen((s) => s.state === "connected");
  return {
    fake,
    model,
    harness,
    stateDir,
    clock,
    owner,
    dm,
    general,
    states,
    answers: () => botTexts(fake, dm),
    stateWhen,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
      await harness[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}
