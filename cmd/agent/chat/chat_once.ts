import { LinkError } from "../../../core/base/mod.ts";
import { sendChat } from "../../../connections/link/mod.ts";
import type { Io } from "../../command.ts";
import type { ChatTarget } from "./chat_target.ts";

/**
 * Sends one message and prints its answer as it streams; answers kept from before print first,
 * each on its own. Returns false when Ctrl-C stopped the wait. A failed answer is an error.
 */
export async function chatOnce(io: Io, target: ChatTarget, thread: string, text: string): Promise<boolean> {
  // Each answer is a paragraph of its own: earlier ones, then this one as it streams.
  let wrote = false;
  let answering = false;
  const paragraph = (piece: string) => {
    io.write(wrote ? `\n\n${piece}` : piece);
    wrote = true;
  };
  const outcome = await sendChat({
    address: target.address,
    caller: target.caller,
    heldDir: target.heldDir,
    thread,
    text,
    signal: io.signal,
    onEarlier: (earlier) => {
      answering = false;
      paragraph(earlier);
    },
    onText: (piece) => {
      if (answering) io.write(piece);
      else paragraph(piece);
      answering = true;
    },
  });
  if (wrote) io.write("\n");
  switch (outcome.kind) {
    case "answered":
      return true;
    case "answered-elsewhere":
      io.note("Your message joined a turn whose answer went to another chat on this thread");
      return true;
    case "stopped":
      io.note("Stopped waiting: your agent finishes its answer, which comes with your next message");
      return false;
    case "failed":
      throw new LinkError("PROVIDER_ERROR", outcome.message, { hint: outcome.hint });
  }
}

/** What `lnk agent chat send --json` prints once the answer is whole. */
export interface CollectedChat {
  /** Answers kept from before, each whole, in order. */
  earlier: string[];
  answer: string;
  outcome: "answered" | "answered-elsewhere" | "stopped";
}

/** Sends one message and collects its answer whole instead of printing it as it streams. */
export async function chatCollected(
  io: Io,
  target: ChatTarget,
  thread: string,
  text: string,
): Promise<CollectedChat> {
  const earlier: string[] = [];
  let answer = "";
  const outcome = await sendChat({
    address: target.address,
    caller: target.caller,
    heldDir: target.heldDir,
    thread,
    text,
    signal: io.signal,
    onEarlier: (piece) => void earlier.push(piece),
    onText: (piece) => void (answer += piece),
  });
  if (outcome.kind === "failed") {
    throw new LinkError("PROVIDER_ERROR", outcome.message, { hint: outcome.hint });
  }
  return { earlier, answer, outcome: outcome.kind };
}
