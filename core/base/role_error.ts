import { LinkError } from "./errors.ts";
import { errorFromWire, errorWire } from "./error_wire.ts";

/**
 * The line a role that fails prints on stdout as it ends, after its log: its final error in the
 * one wire shape, which its parent (reading that stdout for the ready line) rethrows with the
 * role's own code. Never a log line scraped.
 */
export const ERROR_PREFIX = "LINK-ERROR ";

/** The hint of a role's failure when the role gave none: never one of its log lines. */
export const ROLE_LOGS_HINT = "Run `lnk agent logs` to see what it said";

/** Prints the role's final error as the one line its parent reads (ERROR_PREFIX). Call as it ends. */
export function announceError(err: unknown): void {
  try {
    writeStdoutLine(`${ERROR_PREFIX}${JSON.stringify(errorWire(err))}\n`);
  } catch {
    // A parent that stopped waiting reads the role's log instead.
  }
}

/** What an error line says (the text after ERROR_PREFIX): the error, or "garbled" when it is not one. */
export function readErrorLine(text: string): LinkError | "garbled" {
  try {
    return errorFromWire(JSON.parse(text)) ?? "garbled";
  } catch {
    return "garbled";
  }
}

/** Writes a whole line on stdout, however the pipe takes it. */
export function writeStdoutLine(line: string): void {
  const bytes = new TextEncoder().encode(line);
  for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
}
