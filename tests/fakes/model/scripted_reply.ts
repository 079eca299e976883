/** Token counts a scripted reply reports; left out, the fake estimates them from the text. */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Reported as `prompt_tokens_details.cached_tokens` when given. */
  cached_tokens?: number;
}

/** One tool call a scripted reply makes: `args` is sent as JSON unless it is already a string. */
export interface FakeToolCall {
  name: string;
  args: unknown;
  id?: string;
}

/** How a scripted reply is paced and held. */
export interface ReplyTiming {
  /** Send nothing, not even headers, until the test calls `release()`. */
  hold?: boolean;
  /** Stream this many chunks, then stall until `release()`. */
  stallAfter?: number;
  /** Stream each chunk only when the test calls `step()` (or everything after `release()`). */
  paced?: boolean;
}

/** What the fake answers one chat request with. */
export type ScriptedReply =
  & ReplyTiming
  & (
    | {
      kind: "text";
      text: string;
      /** How the text is split into stream chunks; by words unless given. */
      chunks?: string[];
      finishReason?: string;
      usage?: FakeUsage;
      /** Sent as `reasoning_content` before the text (DeepSeek's reasoner). */
      reasoning?: string;
    }
    | {
      kind: "tool_calls";
      calls: FakeToolCall[];
      /** Text streamed before the calls. */
      text?: string;
      /** How many pieces each call's arguments are cut into when streamed. */
      argPieces?: number;
      usage?: FakeUsage;
    }
    | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> }
    | { kind: "garbage"; body: string; contentType: string; status: number }
    /** Streams part of the text, then ends (cleanly, or by dropping the connection if abrupt). */
    | { kind: "cut_off"; text: string; abrupt: boolean }
    /** Streams part of the text, then an OpenRouter-style `{"error": …}` chunk. */
    | { kind: "stream_error"; text: string; message: string; code: number }
  );

/** Splits text the way a model streams it: words with their trailing spaces. */
export function splitWords(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g);
  return words ?? (text ? [text] : []);
}

/** Cuts a string into `pieces` parts of near-equal length (some may be empty for short strings). */
export function cutInto(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length ? parts : [""];
}

/** The arguments string of a fake tool call. */
export function argsText(call: FakeToolCall): string {
  return typeof call.args === "string" ? call.args : JSON.stringify(call.args);
}

/** A rough, deterministic token count: a quarter of the characters, at least one. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
