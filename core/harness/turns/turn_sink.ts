/** How a turn ended, as its caller is told. */
export interface TurnResult {
  stopReason: "end_turn" | "cancelled" | "refusal";
  /** Set when the answer says the agent could not answer. */
  error?: { code: string; message: string; hint?: string };
}

/**
 * Where a turn's answer streams while it is written: the request that started it, or nobody (a
 * crashed turn finished at start, a caller gone). A turn never waits on its sink.
 */
export interface TurnSink {
  /** Whether someone still reads the answer; when not, the answer is kept (LOC-5). */
  readonly waiting: boolean;
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
