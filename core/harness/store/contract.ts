import { z } from "zod";
import { lazySchema } from "../../base/mod.ts";

/**
 * One event of a conversation, numbered from 1 and written once (TRN-8). The harness writes
 * them; nothing else does (LAY-7).
 */
export const ConversationEvent = lazySchema(() =>
  z.discriminatedUnion("type", [
    /** A message that starts or steers a turn: from the owner, or from someone else (SCH-1). */
    z.strictObject({
      type: z.literal("message"),
      text: z.string(),
      from: z.string().optional(),
      /** `Link-Hops` it came with: how many hops between agents it travelled (SCH-9, TEAM-8). */
      hops: z.number().int().min(0).optional(),
      /** The request that brought it, so its answer finds its way (TRN-9, TRN-10). */
      request: z.string(),
      at: z.number(),
    }),
    /** A turn began: which messages it answers. */
    z.strictObject({
      type: z.literal("turn"),
      turn: z.string(),
      answers: z.array(z.number()),
      at: z.number(),
    }),
    /** The model asked for tools; each call is answered by one tool_result, or recovery (TRN-4). */
    z.strictObject({
      type: z.literal("assistant"),
      turn: z.string(),
      text: z.string(),
      tool_calls: z.array(z.strictObject({ id: z.string(), name: z.string(), arguments: z.string() }))
        .default([]),
      usage: z.strictObject({ input: z.number(), output: z.number() }).optional(),
      /**
       * The last event the model had read when it wrote this: a message written meanwhile (a
       * steer) came after it, and the model reads it so (TRN-9).
       */
      seen: z.number().int().min(0).optional(),
      at: z.number(),
    }),
    z.strictObject({
      type: z.literal("tool_result"),
      turn: z.string(),
      call: z.string(),
      content: z.string(),
      /** true when recovery answered a call that never finished: "not made" (TRN-4). */
      not_made: z.boolean().default(false),
      at: z.number(),
    }),
    /** The turn's answer is complete: every message it took in is answered. */
    z.strictObject({
      type: z.literal("answer"),
      turn: z.string(),
      text: z.string(),
      answers: z.array(z.number()),
      at: z.number(),
    }),
    /** A model or tool error that ended the turn, said to the chat. */
    z.strictObject({ type: z.literal("error"), turn: z.string(), message: z.string(), at: z.number() }),
    /** Compaction: events up to `through` are summarised for the model; none is deleted. */
    z.strictObject({ type: z.literal("summary"), through: z.number(), text: z.string(), at: z.number() }),
  ])
);
export type ConversationEvent = z.infer<typeof ConversationEvent>;

/** A numbered event as read back. */
export interface StoredEvent {
  n: number;
  event: ConversationEvent;
}

/** Who holds a conversation's turn (U-13): this boot, this process, this start. */
export const LeaseHolder = lazySchema(() =>
  z.strictObject({ boot: z.string(), pid: z.number(), start: z.string() })
);
export type LeaseHolder = z.infer<typeof LeaseHolder>;

/** A conversation's `turn.json` (TRN-1). It never says how long it lasts: the reader's settings do (TRN-3). */
export const Lease = lazySchema(() =>
  z.looseObject({ holder: LeaseHolder, turn: z.string(), renewed_at_ms: z.number() })
);
export type Lease = z.infer<typeof Lease>;

/**
 * The conversation store contract (TRN-14..18): append if the number is free, read, and the
 * lease. Drivers (files, SQLite, and programs run outside the sandbox behind the store bridge)
 * all answer this one contract; one shared test runs every driver.
 */
export interface ConversationStore {
  /** Writes event `n` only if no event `n` exists: "conflict" tells the loser to read again (TRN-8). */
  append(conversation: string, n: number, event: ConversationEvent): Promise<"ok" | "conflict">;
  /** Events numbered `from` and after (all by default), in order. */
  read(conversation: string, from?: number): Promise<StoredEvent[]>;
  /** The lease as stored, or undefined when nobody holds the turn. */
  leaseRead(conversation: string): Promise<Lease | undefined>;
  /**
   * turn.take (TRN-7): takes the lease when free, or lapsed by `lapseMs` judged to the
   * millisecond against `nowMs` (TRN-2): one taker at a time. Returns the lease taken, or undefined.
   */
  leaseTake(
    conversation: string,
    lease: Lease,
    options: { lapseMs: number; nowMs: number },
  ): Promise<Lease | undefined>;
  /** Renews a lease still ours; false when another took it. */
  leaseRenew(conversation: string, lease: Lease, nowMs: number): Promise<boolean>;
  /** Lets a lease still ours go. */
  leaseRelease(conversation: string, lease: Lease): Promise<void>;
  /** The conversation's narrowed tool list, kept beside the events (TRN-12, TRN-13). */
  toolsRead(conversation: string): Promise<string[] | undefined>;
  toolsWrite(conversation: string, tools: string[]): Promise<void>;
  /** Every conversation the store holds. */
  list(): Promise<string[]>;
}
