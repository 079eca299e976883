/** How a turn ended, as its caller is told. */
export interface TurnResult {
  stopReason: "end_turn" | "cancelled" | "refusal";
  /** Set when the answer says the agent could not answer. */
  error?: { code: string; message: string; hint?: string };
  /** The ids of the answers kept for a caller that acknowledges them (`link.local/receipt`). */
  kept?: string[];
}

/**
 * Where a turn's answer streams while it is written: the request that started it, or nobody (a
 * crashed turn finished at start, a caller gone). A turn never waits on its sink.
 */
export interface TurnSink {
  /** Whether someone still reads the answer; when not, the answer is kept (LOC-5). */
  readonly waiting: boolean;
  /** The caller acknowledges what it read: each answer is kept until it does (`link.local/receipt`). */
  readonly acknowledges?: boolean;
  /** A piece of the answer's text; `error` marks the sentence saying the agent could not answer. */
  text(text: string, error?: boolean): void;
  /** The model called a tool. */
  toolCall(call: { id: string; name: string; arguments: string }): void;
  /** A tool answered. */
  toolResult(id: string, ok: boolean): void;
  /** The last word: nothing is sent after it. */
  end(result: TurnResult): void;
}

/** The sink of a turn nobody waits for: its answers are kept for `/_link/recover`. */
export const NO_CALLER: TurnSink = Object.freeze({
  waiting: false,
  text() {},
  toolCall() {},
  toolResult() {},
  end() {},
});

/**
 * A sink that keeps an answer's paragraphs apart: after `paragraph()`, the next text starts
 * with a blank line when anything was written before (a reply after a tool call, a second turn
 * on the same request, the sentence saying a provider failed mid-answer).
 */
export class ParagraphSink implements TurnSink {
  #inner: TurnSink;
  #wrote = false;
  #paragraph = false;

  constructor(inner: TurnSink) {
    this.#inner = inner;
  }

  get waiting(): boolean {
    return this.#inner.waiting;
  }

  get acknowledges(): boolean {
    return this.#inner.acknowledges === true;
  }

  /** The next text begins a new paragraph. */
  paragraph(): void {
    this.#paragraph = true;
  }

  text(text: string, error = false): void {
    if (text === "") return;
    if (this.#paragraph && this.#wrote) this.#inner.text("\n\n", error);
    this.#paragraph = false;
    this.#wrote = true;
    this.#inner.text(text, error);
  }

  toolCall(call: { id: string; name: string; arguments: string }): void {
    this.#inner.toolCall(call);
  }

  toolResult(id: string, ok: boolean): void {
    this.#inner.toolResult(id, ok);
  }

  end(result: TurnResult): void {
    this.#inner.end(result);
  }
}
