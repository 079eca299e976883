import { LinkError, logger } from "../../base/mod.ts";
import { conversationState } from "./conversation_state.ts";
import { EventLog } from "./event_log.ts";
import type { ConversationEvent } from "../store/mod.ts";
import { type HolderMark, holdMark } from "./holder_marks.ts";
import { type LeaseKeeper, takeLease } from "./lease_keeper.ts";
import { CommandLocks } from "./command_locks.ts";
import { runConversation } from "./run_conversation.ts";
import type { TurnAgent } from "./turn_agent.ts";
import { NO_CALLER, type TurnSink } from "./turn_sink.ts";
import { TurnNudges } from "./turn_nudges.ts";
import { watchLease } from "./watch_lease.ts";

const log = logger("harness");

/** A message as it reaches the agent. */
export interface IncomingMessage {
  conversation: string;
  text: string;
  /** Who sent it, when not the owner (SCH-1). */
  from?: string;
  /** The hops it came with (`Link-Hops`), when it came from someone else. */
  hops?: number;
  /** The request that brought it, so its answer finds its way. */
  request: string;
}

/** What became of a message: it starts a turn this request streams, it joined one, or it was refused. */
export type Reception =
  | { kind: "turn"; n: number; start(sink: TurnSink): void }
  | { kind: "steered"; n: number }
  | { kind: "busy" };

/**
 * One agent's conversations in this process: each message is written once on its number, then
 * the conversation's lease decides who runs the turn (TRN-1, TRN-7). A message arriving mid-turn
 * does what `[turns] busy` says (TRN-11): it joins the turn (202, Link-Steered), waits for its own
 * turn, or is refused. Crashed turns are finished at start and whenever a lease is found lapsed.
 */
export class AgentTurns implements AsyncDisposable {
  readonly agent: TurnAgent;
  /** Locks background commands hold while they run, so the agent never sleeps under them (PRC-10). */
  readonly locks: CommandLocks = new CommandLocks();
  #logs = new Map<string, EventLog>();
  #running = new Map<string, Set<AbortController>>();
  #watching = new Set<string>();
  #nudges = new TurnNudges();
  #tasks = new Set<Promise<void>>();
  #stop = new AbortController();
  #mark: Promise<HolderMark | undefined> | undefined;

  constructor(agent: TurnAgent, options: { signal?: AbortSignal } = {}) {
    this.agent = agent;
    options.signal?.addEventListener("abort", () => this.#stop.abort(), { once: true });
  }

  /** Whether the harness is stopping: nothing new starts. */
  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** How many turns this process runs now, across conversations (PRC-10). */
  get running(): number {
    let n = 0;
    for (const turns of this.#running.values()) n += turns.size;
    return n;
  }

  /** The conversation's events as this process has read them. */
  events(conversation: string): EventLog {
    let events = this.#logs.get(conversation);
    if (!events) this.#logs.set(conversation, events = new EventLog(this.agent.store, conversation));
    return events;
  }

  /** Takes in one message as `[turns] busy` says; `signal` is its request's (a queued one stops waiting). */
  async receive(message: IncomingMessage, signal?: AbortSignal): Promise<Reception> {
    const events = this.events(message.conversation);
    const event = {
      type: "message" as const,
      text: message.text,
      ...(message.from === undefined ? {} : { from: message.from }),
      ...(message.hops ? { hops: message.hops } : {}),
      request: message.request,
      at: this.agent.clock.now(),
    };
    const before = await takenBefore(events, message);
    if (before !== undefined) {
      log.info("A message came again: it is answered once, as the first time", {
        agent: this.agent.id,
        conversation: message.conversation,
        request: message.request,
      });
      await this.#keepAnsweredAgain(message, events, before);
      this.#background(this.#watch(message.conversation));
      return { kind: "steered", n: before };
    }
    const take = () => this.#take(message.conversation);
    const busy = this.agent.turns.busy;
    if (busy === "join") {
      let keeper = await take();
      const n = await appendHolding(events, event, keeper);
      keeper ??= await take();
      if (keeper) return this.#turn(message.conversation, n, keeper);
      this.#background(this.#watch(message.conversation));
      return { kind: "steered", n };
    }
    for (;;) {
      const keeper = await take();
      if (keeper) return this.#turn(message.conversation, await appendHolding(events, event, keeper), keeper);
      if (busy === "refuse") return { kind: "busy" };
      await this.#waitForTurnEnd(message.conversation, signal);
      if (signal?.aborted) throw new LinkError("REFUSED", "Cannot queue the message: its caller went away");
    }
  }

  /**
   * A message sent again whose first turn ended already, its answer written to a caller that died
   * before it read it (the harness cannot tell a write into a dead socket from one read): its answer
   * is kept again from the conversation's `answer` event, so the caller asking again gets it, and the
   * model is not asked twice. One kept already for the request is left alone.
   */
  async #keepAnsweredAgain(message: IncomingMessage, events: EventLog, n: number): Promise<void> {
    const answered = events.events.find((e) => (e.event.type === "answer" && e.event.answers.includes(n)))
      ?.event;
    // A turn that ended in an error answered it with that error: kept as failed, so its caller asks
    // again as a new message rather than wait for an answer that will never be kept.
    const turn = events.events.find((e) => e.event.type === "turn" && e.event.answers.includes(n))?.event;
    const failed = answered === undefined && turn?.type === "turn"
      ? events.events.find((e) => e.event.type === "error" && e.event.turn === turn.turn)?.event
      : undefined;
    if (answered?.type !== "answer" && failed?.type !== "error") return;
    // A turn still running keeps its own answer before it lets the conversation go: only once it is
    // idle is an answer missing from the kept ones one that was written to a caller.
    if (!await this.idle(message.conversation)) return;
    const kept = await this.agent.kept.list(message.conversation);
    if (kept.some((k) => k.requests.includes(message.request))) return;
    await this.agent.kept.keep({
      conversation: message.conversation,
      answer: answered?.type === "answer" ? answered.text : failed?.type === "error" ? failed.message : "",
      requests: [message.request],
      error: answered?.type !== "answer",
    }, this.agent.clock.now());
  }

  /** Cancels the turns this process runs in a conversation (session/cancel); false when none runs here. */
  cancel(conversation: string): boolean {
    const running = this.#running.get(conversation);
    for (const controller of running ?? []) controller.abort(new Error("cancelled"));
    return (running?.size ?? 0) > 0;
  }

  /** Whether nothing is left to do in a conversation: no lease held and no message waiting. */
  async idle(conversation: string): Promise<boolean> {
    if (this.#running.has(conversation)) return false;
    if (await this.agent.store.leaseRead(conversation)) return false;
    const events = this.events(conversation);
    await events.refresh();
    const state = conversationState(events.events);
    return state.pending.length === 0 && !state.openTurn;
  }

  /** Resolves at the next turn end in this process for the conversation, after `ms`, or at abort. */
  async waitForChange(conversation: string, ms: number, signal: AbortSignal): Promise<void> {
    await this.#nudges.wait(conversation, ms, this.agent.clock, AbortSignal.any([signal, this.#stop.signal]));
  }

  /**
   * At the harness's start, beside serving: each conversation whose lease is still there had a
   * turn running when its process went; it is finished now, or when its lease lapses (TRN-4), its
   * answer kept. A message to such a conversation meanwhile waits on its lease as any message
   * does, so the crashed turn is finished first. settled() waits for this too.
   */
  recover(): Promise<void> {
    const recovery = this.#recoverAll().catch((err) => {
      if (!this.stopped) log.error("Cannot recover the conversations", { agent: this.agent.id, error: err });
    });
    this.#background(recovery);
    return recovery;
  }

  async #recoverAll(): Promise<void> {
    for (const conversation of await this.agent.store.list()) {
      if (this.stopped) return;
      if (await this.agent.store.leaseRead(conversation)) this.#background(this.#watch(conversation));
    }
  }

  /** Resolves once every turn and watch this process began has ended. */
  async settled(): Promise<void> {
    while (this.#tasks.size) await Promise.allSettled([...this.#tasks]);
  }

  async #take(conversation: string): Promise<LeaseKeeper | undefined> {
    const { clock, turns, holders } = this.agent;
    // Held before any lease is taken, so every lease this process holds has its mark (holder_marks.ts).
    if (holders !== undefined) {
      const mark = await (this.#mark ??= holdMark(holders, clock.now()).catch((err) => {
        // Without its mark the process still takes turns; the next one waits out the lapse.
        log.warn("Cannot keep the mark that this harness lives", { agent: this.agent.id, error: err });
        return undefined;
      }));
      await mark?.touch(clock.now());
    }
    return await takeLease(this.agent.store, conversation, {
      clock,
      renewMs: turns.renewMs,
      lapseMs: turns.lapseMs,
      signal: this.#stop.signal,
      marks: holders,
    });
  }

  #turn(conversation: string, n: number, keeper: LeaseKeeper): Reception {
    return {
      kind: "turn",
      n,
      start: (sink) => this.#background(this.#run(conversation, keeper, sink, true)),
    };
  }

  async #run(conversation: string, keeper: LeaseKeeper, sink: TurnSink, fresh = false): Promise<void> {
    const cancel = new AbortController();
    const running = this.#running.get(conversation) ?? new Set();
    this.#running.set(conversation, running.add(cancel));
    try {
      await runConversation({
        agent: this.agent,
        events: this.events(conversation),
        keeper,
        sink,
        stop: this.#stop.signal,
        cancel: cancel.signal,
        take: () => this.#take(conversation),
        fresh,
      });
    } finally {
      running.delete(cancel);
      if (!running.size) this.#running.delete(conversation);
      this.#nudges.wake(conversation);
    }
  }

  /**
   * Makes sure someone answers a conversation whose lease another holds: waits while the holder
   * renews, and takes the turn once the holder let go with work left, or died (TRN-4, TRN-7).
   */
  async #watch(conversation: string): Promise<void> {
    if (this.#watching.has(conversation)) return;
    this.#watching.add(conversation);
    try {
      await watchLease({
        agent: this.agent,
        events: this.events(conversation),
        runningHere: () => this.#running.has(conversation),
        take: () => this.#take(conversation),
        run: (keeper) => this.#run(conversation, keeper, NO_CALLER),
        signal: this.#stop.signal,
      });
    } catch (err) {
      if (!this.#stop.signal.aborted) {
        log.error("Cannot finish a conversation's turn", { conversation, error: err });
      }
    } finally {
      this.#watching.delete(conversation);
    }
  }

  async #waitForTurnEnd(conversation: string, signal: AbortSignal | undefined): Promise<void> {
    await this.waitForChange(conversation, this.agent.turns.renewMs, signal ?? this.#stop.signal);
  }

  #background(task: Promise<void>): void {
    this.#tasks.add(task);
    task.finally(() => this.#tasks.delete(task));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#stop.abort();
    await this.settled();
    // Every lease is let go or left lapsed by now: the mark may go.
    await (await this.#mark?.catch(() => undefined))?.release();
  }
}

/** Appends a message; a lease taken for it is let go again when the message cannot be written. */
async function appendHolding(
  events: EventLog,
  event: ConversationEvent,
  keeper: LeaseKeeper | undefined,
): Promise<number> {
  try {
    return await events.append(event);
  } catch (err) {
    await keeper?.release().catch(() => {});
    throw err;
  }
}

/** How far back a message sent again is looked for: a carrier sends again only what it just sent. */
const AGAIN_WITHIN = 200;

/**
 * The number of the message a carrier sends again (the same `link.local/request` and text, after
 * a restart that found no kept answer yet because the first turn was still running), so it is not
 * answered twice: it gets the first one's answer, kept for its request, as a message that joined.
 */
async function takenBefore(events: EventLog, message: IncomingMessage): Promise<number | undefined> {
  await events.refresh();
  const recent = events.events.slice(-AGAIN_WITHIN);
  return recent.find((e) =>
    e.event.type === "message" && e.event.request === message.request && e.event.text === message.text
  )?.n;
}
