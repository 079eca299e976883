/**
 * What the fake daemon knows and keeps: its account, the people and groups Signal knows, timestamps,
 * and what the account sent and what typing it showed, per recipient (a number or a group id).
 */
import type { Clock } from "../../../core/base/mod.ts";
import { newGroupId, type SignalGroup, type SignalPerson } from "./envelopes.ts";
import type { Daemon, SignalSent } from "./methods.ts";

export class DaemonState implements Daemon {
  readonly sentTo = new Map<string, SignalSent[]>();
  readonly typingTo = new Map<string, ("started" | "stopped")[]>();
  #clock: Clock;
  #self: SignalPerson;
  #multi: boolean;
  #others: string[];
  #people = new Map<string, SignalPerson>();
  #groups = new Map<string, SignalGroup>();
  #lastTimestamp = 0;
  #nextNumber = 2;
  #registered = true;

  constructor(clock: Clock, options: { account: string; multiAccount: boolean; otherAccounts?: string[] }) {
    this.#clock = clock;
    this.#self = { name: "Link", number: options.account, uuid: crypto.randomUUID() };
    this.#multi = options.multiAccount;
    this.#others = [...options.otherAccounts ?? []];
  }

  self(): SignalPerson {
    return this.#self;
  }

  multiAccount(): boolean {
    return this.#multi;
  }

  registered(): boolean {
    return this.#registered;
  }

  /** Signal's servers no longer know the account: registered elsewhere, or deleted. */
  deregister(): void {
    this.#registered = false;
  }

  otherAccounts(): string[] {
    return [...this.#others];
  }

  groups(): ReadonlyMap<string, SignalGroup> {
    return this.#groups;
  }

  addPerson(name: string): SignalPerson {
    const number = `+1555${String(this.#nextNumber++).padStart(7, "0")}`;
    const person = { name, number, uuid: crypto.randomUUID() };
    this.#people.set(number, person);
    return person;
  }

  addGroup(name: string, members: SignalPerson[]): SignalGroup {
    const group = { id: newGroupId(), name, members: [...members, this.#self], revision: 1 };
    this.#groups.set(group.id, group);
    return group;
  }

  personOf(recipient: string): SignalPerson | undefined {
    return this.#people.get(recipient) ?? [...this.#people.values()].find((p) => p.uuid === recipient);
  }

  nextTimestamp(): number {
    this.#lastTimestamp = Math.max(this.#clock.now(), this.#lastTimestamp + 1);
    return this.#lastTimestamp;
  }

  recordSent(recipient: string, sent: SignalSent): void {
    append(this.sentTo, recipient, sent);
  }

  recordTyping(recipient: string, action: "started" | "stopped"): void {
    append(this.typingTo, recipient, action);
  }
}

function append<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}
