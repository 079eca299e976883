/**
 * A Signal carrier under test: carrySignal over the fake signal-cli daemon (tests/fakes/fake_signal.ts),
 * a real Link Harness on a unix socket and the fake model, the daemon's keep-alives and the
 * carrier's waits both on one FakeClock.
 */
import assert from "node:assert/strict";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import { carrySignal, inboxDir, type SignalState } from "../../../connections/signal/mod.ts";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import {
  type FakeSignal,
  type FakeSignalOptions,
  serveFakeSignal,
  type SignalPerson,
} from "../../fakes/fake_signal.ts";
import { type HarnessFixture, harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";

/** Whether the carrier's inbox holds no kept envelope. */
export function inboxEmpty(stateDir: string): boolean {
  try {
    return [...Deno.readDirSync(inboxDir(stateDir))].length === 0;
  } catch {
    return true;
  }
}

/** Moves the clock on a second at a time until `done` holds: the carrier's waits run by the clock. */
export async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await clock.advance(1000);
  assert.ok(done(), "the awaited state never came");
}

/** Resolves once `ok` holds, checked at each change of the files in `dir`. */
export async function untilFiles(dir: string, ok: () => boolean): Promise<void> {
  using watcher = Deno.watchFs(dir);
  if (ok()) return;
  for await (const _ of watcher) if (ok()) return;
}

/** Resolves once the daemon sent `recipient` at least `count` messages. */
export async function sentCount(fake: FakeSignal, recipient: string, count: number): Promise<void> {
  while (fake.sent(recipient).length < count) await fake.nextCall("send");
}

/** The texts the daemon sent `recipient`. */
export function textsTo(fake: FakeSignal, recipient: string): string[] {
  return fake.sent(recipient).map((s) => s.message);
}

/** The last user message of each request the model got. */
export function userTexts(model: FakeModel): unknown[] {
  return model.requests.map((r) => {
    const body = r.body as { messages: { role: string; content: unknown }[] };
    return body.messages.filter((m) => m.role === "user").at(-1)?.content;
  });
}

/** What a test of one carrier holds. */
export interface SignalCarrier extends AsyncDisposable {
  fake: FakeSignal;
  model: FakeModel;
  harness: HarnessFixture;
  owner: SignalPerson;
  stateDir: string;
  clock: FakeClock;
  states: SignalState[];
  /** Resolves once the carrier said `count` states. */
  stateCount(count: number): Promise<void>;
  /** Resolves once `recipient` got `count` messages and nothing is left kept. */
  answered(recipient: string, count?: number): Promise<void>;
}

/** A carrier for the owner (Ada), over the fake daemon, a real harness and a fake model. */
export async function signalCarrier(
  options: { access?: (fake: FakeSignal) => ChatAccess; daemon?: FakeSignalOptions; number?: string } = {},
): Promise<SignalCarrier> {
  const clock = new FakeClock();
  const fake = await serveFakeSignal({ clock, ...options.daemon });
  const owner = fake.person("Ada");
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-signal-" });
  const states: SignalState[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const stop = new AbortController();
  const carrying = carrySignal({
    account: { daemonUrl: fake.url, number: options.number ?? fake.account },
    stateDir,
    ownerNumber: owner.number,
    access: options.access?.(fake),
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: stop.signal,
    onState: (s) => {
      states.push(s);
      for (const w of waiters.filter((w) => states.length >= w.count)) w.resolve();
    },
  });
  return {
    fake,
    model,
    harness,
    owner,
    stateDir,
    clock,
    states,
    stateCount(count) {
      if (states.length >= count) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      waiters.push({ count, resolve });
      return promise;
    },
    async answered(recipient, count = 1) {
      await sentCount(fake, recipient, count);
      await untilFiles(stateDir, () => inboxEmpty(stateDir));
    },
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
