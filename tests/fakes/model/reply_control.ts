import { Gate } from "./gate.ts";
import type { ScriptedReply } from "./scripted_reply.ts";

/** One chat request as the fake model received it. */
export interface FakeModelRequest {
  method: string;
  /** The path, such as "/v1/chat/completions". */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body exactly as sent, for byte comparisons (PRN-2). */
  rawBody: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  /** When the request reached the fake's handler: `performance.now()`. */
  receivedAt: number;
  /** The same moment as `Date.now()`. */
  receivedAtEpoch: number;
  /** When the first byte of the body arrived (`performance.now()`); the handler's time when it has none. */
  firstByteAt: number;
  /** True once the client went away before the reply ended. */
  disconnected: boolean;
}

/** What a test holds for a reply it scripted: to learn when it is taken, and to pace it. */
export interface ReplyControl {
  /** Resolves with the request that took this reply. */
  readonly taken: Promise<FakeModelRequest>;
  /** Resolves once the reply has been written in full, cut off, or abandoned. */
  readonly done: Promise<void>;
  /** Lets a held, stalled or paced reply send everything it has left. */
  release(): void;
  /** Lets a paced (or held) reply send one more chunk. */
  step(count?: number): void;
}

/** A scripted reply in the fake's queue, with its gate and promises. */
export class QueuedReply implements ReplyControl {
  readonly reply: ScriptedReply;
  readonly gate: Gate = new Gate();
  readonly taken: Promise<FakeModelRequest>;
  readonly done: Promise<void>;
  readonly #taken = Promise.withResolvers<FakeModelRequest>();
  readonly #done = Promise.withResolvers<void>();
  #request: FakeModelRequest | undefined;

  constructor(reply: ScriptedReply) {
    this.reply = reply;
    this.taken = this.#taken.promise;
    this.done = this.#done.promise;
  }

  release(): void {
    this.gate.open();
  }

  step(count = 1): void {
    this.gate.step(count);
  }

  /** Marks the reply as taken by a request. */
  take(request: FakeModelRequest): void {
    this.#request = request;
    this.#taken.resolve(request);
  }

  /** Notes that the client went away before the reply ended. */
  disconnect(): void {
    if (this.#request) this.#request.disconnected = true;
  }

  /** Marks the reply as finished, whichever way it ended. */
  finish(): void {
    this.#done.resolve();
  }
}
