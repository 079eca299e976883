/**
 * The REST calls the fake received, in order, with the faults a test queued for a route and the
 * waiters of `nextCall`, each call returned once.
 */
import type { FakeDiscordFault } from "./http.ts";
import type { FakeDiscordRoute } from "./rest.ts";

/** One REST call the bot made, as the fake received it. */
export interface FakeDiscordCall {
  route: FakeDiscordRoute;
  method: string;
  /** The path under `/v10`, as sent: `/channels/123/messages`. */
  path: string;
  /** The route's parameters: `id` (a channel) and `mid` (a message). */
  params: Record<string, string>;
  /** The query, as sent (`limit`, `after` for a channel's messages). */
  query: Record<string, string>;
  /** The JSON body, undefined when none. */
  body: unknown;
  /** The bot token it carried, "" when none. */
  token: string;
  /** When it arrived, by the fake's clock. */
  at: number;
  /** Whether it came into an empty bucket before its reset (and got 429). */
  violation: boolean;
  /** What the fake answered, once it has. */
  answer?: { status: number; body: unknown };
}

interface Waiter {
  route: FakeDiscordRoute;
  predicate: (call: FakeDiscordCall) => boolean;
  resolve(call: FakeDiscordCall): void;
}

export class Calls {
  readonly all: FakeDiscordCall[] = [];
  #faults = new Map<FakeDiscordRoute, FakeDiscordFault[]>();
  #returned = new Set<FakeDiscordCall>();
  #waiters: Waiter[] = [];

  /** The earliest call of `route` (matching `predicate`) not returned yet, waiting for it if need be. */
  next(route: FakeDiscordRoute, predicate: (call: FakeDiscordCall) => boolean): Promise<FakeDiscordCall> {
    const found = this.all.find((c) => c.route === route && !this.#returned.has(c) && predicate(c));
    if (found) {
      this.#returned.add(found);
      return Promise.resolve(found);
    }
    const { promise, resolve } = Promise.withResolvers<FakeDiscordCall>();
    this.#waiters.push({ route, predicate, resolve });
    return promise;
  }

  /** Queues `fault` for the next `times` calls of `route`. */
  failNext(route: FakeDiscordRoute, fault: FakeDiscordFault, times: number): void {
    const queue = this.#faults.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#faults.set(route, queue);
  }

  /** The fault queued for a call of `route`, taken, or undefined. */
  takeFault(route: FakeDiscordRoute): FakeDiscordFault | undefined {
    return this.#faults.get(route)?.shift();
  }

  /** Records an answered call and hands it to the first waiter it matches. */
  answered(call: FakeDiscordCall): void {
    this.all.push(call);
    const waiter = this.#waiters.find((w) => w.route === call.route && w.predicate(call));
    if (!waiter) return;
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    this.#returned.add(call);
    waiter.resolve(call);
  }
}
