import type { z } from "zod";
import {
  type Clock,
  type ErrorCode,
  errorFromWire,
  LinkError,
  logger,
  ROLE_LOGS_HINT,
  SYSTEM_CLOCK,
} from "../../base/mod.ts";
import type { DriverCall } from "./driver_protocol.ts";
import { describeCall, storeOverCalls } from "./driver_client.ts";
import { type DriverCommand, DriverProcess } from "./_driver_process.ts";
import type { OpenStore } from "./files_store.ts";

/** A call past this is stopped: the driver is killed and the call fails (TRN-16, U-12). */
export const DRIVER_CALL_TIMEOUT_MS = 30_000;

/** Options for programStore. */
export interface ProgramStoreOptions extends DriverCommand {
  /** One long-lived driver answering call after call (TRN-16); else one process per call. */
  serve: boolean;
  /** Per call: 30 s unless told. */
  timeoutMs?: number;
  clock?: Clock;
}

const log = logger("store");

/** Codes a driver's error keeps; any other becomes SERVICE_FAILED. */
const KEPT_CODES: readonly ErrorCode[] = [
  "USAGE",
  "CONFIG_INVALID",
  "REFUSED",
  "UNSUPPORTED",
  "SERVICE_FAILED",
];

/**
 * A ConversationStore that asks a driver program over the JSON-lines protocol (TRN-16, TRN-17):
 * one call at a time, in order. A `serve` driver is started at the first call and kept; a driver
 * that exits, answers off-protocol or runs a call past `timeoutMs` is stopped (killed) and the
 * next call starts a new one. Without `serve`, every call runs the program once.
 */
export function programStore(options: ProgramStoreOptions): OpenStore {
  const timeoutMs = options.timeoutMs ?? DRIVER_CALL_TIMEOUT_MS;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const name = options.command[0] ?? "";
  let kept: DriverProcess | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  // A one-shot call lasts until its driver exits, so the timeout covers a driver that answers and hangs.
  const exchange = async (proc: DriverProcess, line: string): Promise<string | undefined> => {
    if (!(await proc.send(line))) return undefined;
    if (options.serve) return await proc.nextLine();
    await proc.closeInput();
    const answer = await proc.nextLine();
    await proc.exited;
    return answer;
  };

  const callNow = async <S extends z.ZodType>(call: DriverCall, schema: S): Promise<z.output<S>> => {
    const what = describeCall(call);
    const ends = new AbortController();
    const timedOut = clock.sleep(timeoutMs, ends.signal).then(() => true, () => false);
    let proc: DriverProcess | undefined;
    try {
      proc = options.serve ? (kept ??= DriverProcess.start(options)) : DriverProcess.start(options);
      const answer = exchange(proc, JSON.stringify(call));
      answer.catch(() => {});
      const line = await Promise.race([answer, timedOut.then((late) => (late ? TIMED_OUT : never()))]);
      if (line === TIMED_OUT) {
        // What it said goes to the log, never into the hint a person reads.
        log.warn("A store driver did not answer in time", { driver: name, lastWords: proc.lastWords() });
        throw new LinkError(
          "TIMEOUT",
          `Cannot ${what}: store driver "${name}" did not answer within ${timeoutMs} ms`,
          { hint: "It was stopped. Check the database it uses, and `lnk agent logs` for what it said" },
        );
      }
      if (line === undefined) {
        const status = await proc.exited;
        log.warn("A store driver exited without answering", { driver: name, lastWords: proc.lastWords() });
        throw new LinkError(
          "SERVICE_FAILED",
          `Cannot ${what}: store driver "${name}" exited with code ${status.code} without answering`,
          { hint: ROLE_LOGS_HINT },
        );
      }
      const reply = readReply(line, schema, what, name);
      return reply;
    } catch (err) {
      // A driver that failed a call may be out of step: never ask it again.
      if (proc !== undefined) await proc.stop();
      if (proc === kept) kept = undefined;
      throw err;
    } finally {
      ends.abort();
      if (proc !== undefined && !options.serve) await proc.stop();
    }
  };

  const call = <S extends z.ZodType>(request: DriverCall, schema: S): Promise<z.output<S>> => {
    const run = tail.then(() => callNow(request, schema));
    tail = run.catch(() => {});
    return run;
  };

  return {
    ...storeOverCalls(call),
    async [Symbol.asyncDispose](): Promise<void> {
      await tail;
      const proc = kept;
      kept = undefined;
      if (proc === undefined) return;
      await proc.closeInput();
      const ends = new AbortController();
      await Promise.race([proc.exited, clock.sleep(timeoutMs, ends.signal).catch(() => {})]);
      ends.abort();
      await proc.stop();
    },
  };
}

const TIMED_OUT = Symbol("timed out");

function never(): Promise<never> {
  return new Promise(() => {});
}

function readReply<S extends z.ZodType>(line: string, schema: S, what: string, name: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  const failed = errorFromWire(value);
  if (failed) {
    const kept = KEPT_CODES.find((c) => c === failed.code) ?? "SERVICE_FAILED";
    throw new LinkError(kept, failed.message, failed.hint === undefined ? {} : { hint: failed.hint });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // What it answered goes to the log, never into the hint a person reads.
  log.warn("A store driver answered off the protocol", { driver: name, answered: line.slice(0, 200) });
  throw new LinkError("SERVICE_FAILED", `Cannot ${what}: store driver "${name}" answered off the protocol`, {
    hint: "See the log for what it answered, and check the driver speaks Link's store driver protocol",
    cause: result.error,
  });
}
