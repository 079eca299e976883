import { LinkError } from "../../../core/base/mod.ts";
import { sendChat } from "../../../connections/link/mod.ts";
import type { Io } from "../../command.ts";
import type { ChatTarget } from "./chat_target.ts";

/**
 * Sends one message and prints its answer as it streams; answers kept from before print first,
 * each on its own. Returns false when Ctrl-C stopped the wait. A failed answer is an error.
 */
export async function chatOnce(io: Io, target: ChatTarget, thread: string, text: string): Promise<boolean> {
  let wrote = false;
  const outcome = await sendChat({
    address: target.address,
    caller: target.caller,
    heldDir: target.heldDir,
    thread,
    text,
    signal: io.signal,
    onEarlier: (earlier) => io.print(`${earlier}\n`),
    onText: (piece) => {
      wrote = true;
      io.write(piece);
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
