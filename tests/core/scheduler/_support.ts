import { LinkError } from "../../../core/base/mod.ts";
import type { SendCall } from "../../../connections/link/mod.ts";
import {
  type FiringContext,
  type FiringDriver,
  FiringRecords,
  type Job,
  JobStore,
  newJobId,
} from "../../../core/scheduler/mod.ts";
import { FakeClock } from "../../support/mod.ts";

/** A call the in-process driver took. */
export type DriverCall =
  | { kind: "ask"; to: string; request: string; text: string; from?: string; hops: number; at: string }
  | { kind: "send"; agent: string; call: SendCall };

/**
 * The in-process driver SCH-1 asks for: the agent's answer is "Re: <text>", each call recorded;
 * `fail` makes the next calls throw, as a door refusing or an agent removed would.
 */
export class InProcessDriver implements FiringDriver {
  readonly calls: DriverCall[] = [];
  readonly schedules = new Map<string, string>();
  /** What the next calls do, one each: throw the error, or (undefined) succeed. */
  fail: (LinkError | undefined)[] = [];
  /** A rule each call is read by first: the error it throws, or undefined to go on. */
  failWhen: ((call: DriverCall) => LinkError | undefined) | undefined;
  #clock: FakeClock;

  constructor(clock: FakeClock) {
    this.#clock = clock;
  }

  /** When set, each ask is taken (`taken` resolved) and answered only once `answer` resolves. */
  hold: { taken: PromiseWithResolvers<void>; answer: Promise<void> } | undefined;

  async ask(job: Job, request: string): Promise<string> {
    const at = new Date(this.#clock.now()).toISOString();
    const call: DriverCall = {
      kind: "ask",
      to: job.to,
      request,
      text: job.text,
      from: job.from,
      hops: job.hops,
      at,
    };
    this.calls.push(call);
    if (this.hold) {
      this.hold.taken.resolve();
      await this.hold.answer;
    }
    const failure = this.failWhen?.(call) ?? this.fail.shift();
    if (failure) throw failure;
    return `Re: ${job.text}`;
  }

  send(agent: string, call: SendCall): Promise<void> {
    this.calls.push({ kind: "send", agent, call });
    const failure = this.failWhen?.({ kind: "send", agent, call }) ?? this.fail.shift();
    return failure ? Promise.reject(failure) : Promise.resolve();
  }

  scheduleOf(agentId: string): Promise<string> {
    const found = this.schedules.get(agentId);
    if (found) return Promise.resolve(found);
    return Promise.reject(new LinkError("AGENT_NOT_FOUND", `Cannot find the settings of agent "${agentId}"`));
  }

  /** The due times asked, as instants. */
  get asked(): string[] {
    return this.calls.flatMap((c) => c.kind === "ask" ? [c.request.split("@")[1]!] : []);
  }
}

/** A schedule folder, its stores, a fake clock and the in-process driver, removed at dispose. */
export async function scheduleRig(start: string): Promise<
  AsyncDisposable & {
    dir: string;
    clock: FakeClock;
    driver: InProcessDriver;
    jobs: JobStore;
    records: FiringRecords;
    ctx: FiringContext;
  }
> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-schedule-" });
  const clock = new FakeClock(Date.parse(start));
  const driver = new InProcessDriver(clock);
  const jobs = new JobStore(dir);
  const records = new FiringRecords(dir);
  const ctx: FiringContext = {
    agentId: "agenta1",
    jobs,
    records,
    driver,
    clock,
    catchUpMs: 6 * 3_600_000,
    hops: 8,
  };
  return {
    dir,
    clock,
    driver,
    jobs,
    records,
    ctx,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A job as the owner sets one: to agenta1, on link:main, its answer to the way in. */
export function ownerJob(when: Job["when"], created: string, more: Partial<Job> = {}): Job {
  return {
    v: 1,
    id: newJobId(),
    kind: "schedule",
    set_by: "owner",
    created,
    when,
    to: "agenta1",
    thread: "link:main",
    text: "water the plants",
    hops: 0,
    reply: { to: "way-in", connection: "link", thread: "link:main" },
    ...more,
  };
}
