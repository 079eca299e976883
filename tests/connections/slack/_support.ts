/**
 * A Slack carrier for the owner Ada over the fake Slack (on its own clock), a real Link Harness and a
 * fake model, for the tests of tests/connections/slack/.
 */
import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import { carrySlack, inboxDir, type SlackState } from "../../../connections/slack/mod.ts";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import {
  ACK_TIMEOUT_MS,
  BOT_ID,
  BOT_USER_ID,
  type FakeSlack,
  MAX_RETRIES,
  serveFakeSlack,
  type SlackConversation,
  type SlackUser,
} from "../../fakes/fake_slack.ts";
import { type HarnessFixture, harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";

/** Moves the clock on a second at a time until `done` holds: updates wait their turn by the clock. */
export async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await clock.advance(1000);
  assert.ok(done(), "the awaited state never came");
}

/** Moves the fake's clock past every ack timeout: an envelope never acked is given up. */
export async function pastEveryRetry(slackClock: FakeClock): Promise<void> {
  for (let i = 0; i <= MAX_RETRIES; i++) await slackClock.advance(ACK_TIMEOUT_MS);
}

export function inboxEmpty(stateDir: string): boolean {
  return [...Deno.readDirSync(inboxDir(stateDir))].length === 0;
}

/** A carrier for the owner Ada, over a fake Slack (on its own clock), a real harness and a fake model. */
export interface SlackCarrier extends AsyncDisposable {
  fake: FakeSlack;
  model: FakeModel;
  harness: HarnessFixture;
  stateDir: string;
  clock: FakeClock;
  slackClock: FakeClock;
  owner: SlackUser;
  dm: SlackConversation;
  states: SlackState[];
  /** The texts the app posted in the owner's DM, as they now read. */
  answers(): (string | undefined)[];
}

export async function carrier(
  options: { echoBotMessages?: boolean; access?: (fake: FakeSlack) => ChatAccess } = {},
): Promise<SlackCarrier> {
  const slackClock = new FakeClock();
  const fake = await serveFakeSlack({ clock: slackClock, echoBotMessages: options.echoBotMessages });
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-slack-" });
  const clock = new FakeClock();
  const owner = fake.user("ada");
  const dm = fake.dm(owner);
  const states: SlackState[] = [];
  const stop = new AbortController();
  const carrying = carrySlack({
    account: {
      apiUrl: fake.apiUrl,
      botToken: new Secret(fake.botToken),
      appToken: new Secret(fake.appToken),
      botUserId: BOT_USER_ID,
    },
    stateDir,
    ownerId: owner.id,
    access: options.access?.(fake),
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: stop.signal,
    onState: (s) => states.push(s),
  });
  await fake.socketsWhen((s) => s.open === 1);
  return {
    fake,
    model,
    harness,
    stateDir,
    clock,
    slackClock,
    owner,
    dm,
    states,
    answers: () => fake.messages(dm).filter((m) => m.bot_id === BOT_ID).map((m) => m.text),
    async [Symbol.asyncDispose]() {
      stop.abort();
      await carrying;
      await harness[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

export function userTexts(t: { model: { requests: { body: unknown }[] } }, i: number): unknown[] {
  const body = t.model.requests[i]!.body as { messages: { role: string; content: unknown }[] };
  return body.messages.filter((m) => m.role === "user").map((m) => m.content);
}
