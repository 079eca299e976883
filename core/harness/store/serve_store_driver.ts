import { z } from "zod";
import { errorWire, LinkError, logger, TextLineReader } from "../../base/mod.ts";
import type { ConversationStore } from "./contract.ts";
import { DriverRequest } from "./driver_protocol.ts";

const log = logger("store-driver");

/** Options for serveStoreDriver. */
export interface ServeStoreDriverOptions {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  /** Answer call after call until the input ends (TRN-16); else one call, then return. */
  serve: boolean;
  /** Stops waiting for the next call. A call already running is answered first. */
  signal?: AbortSignal;
}

/**
 * Answers store driver calls (driver_protocol.ts) from `input` on `output` with `store`: one call
 * at a time, in order. Returns how many calls it answered.
 */
export async function serveStoreDriver(
  store: ConversationStore,
  options: ServeStoreDriverOptions,
): Promise<number> {
  const lines = new TextLineReader(options.input);
  const writer = options.output.getWriter();
  const stopped = new Promise<undefined>((resolve) => {
    if (options.signal?.aborted) resolve(undefined);
    options.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
  });
  let answered = 0;
  try {
    for (;;) {
      const line = await Promise.race([lines.next(), stopped]);
      if (line === undefined) break;
      if (line.trim() === "") continue;
      const reply = await answerStoreCall(store, line);
      await writer.write(new TextEncoder().encode(`${JSON.stringify(reply)}\n`));
      answered++;
      log.debug("Store call answered", { pid: Deno.pid, call: answered });
      if (!options.serve) break;
    }
  } finally {
    await lines.cancel();
    writer.releaseLock();
  }
  return answered;
}

/** Answers one protocol line with `store`; failures become `{"error":{...}}`, never a throw. */
export async function answerStoreCall(
  store: ConversationStore,
  line: string,
): Promise<Record<string, unknown>> {
  try {
    return await dispatch(store, parseCall(line));
  } catch (err) {
    return { ...errorWire(err) };
  }
}

function parseCall(line: string): DriverRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw usage("it is not JSON");
  }
  const result = DriverRequest.safeParse(value);
  if (!result.success) throw usage(z.prettifyError(result.error));
  return result.data;
}

function usage(detail: string): LinkError {
  return new LinkError("USAGE", `Cannot answer a store call: ${detail}`, {
    hint: "Send one JSON object per line, as the store driver protocol says",
  });
}

async function dispatch(store: ConversationStore, call: DriverRequest): Promise<Record<string, unknown>> {
  switch (call.op) {
    case "append": {
      const result = await store.append(call.conversation, call.n, call.event);
      return result === "ok" ? { ok: true } : { conflict: true };
    }
    case "read":
      return { ok: true, events: await store.read(call.conversation, call.from) };
    case "lease.read":
      return { ok: true, lease: (await store.leaseRead(call.conversation)) ?? null };
    case "lease.take": {
      const judgement = { lapseMs: call.lapse_ms, nowMs: call.now_ms };
      return { ok: true, lease: (await store.leaseTake(call.conversation, call.lease, judgement)) ?? null };
    }
    case "lease.renew":
      return { ok: true, renewed: await store.leaseRenew(call.conversation, call.lease, call.now_ms) };
    case "lease.release":
      await store.leaseRelease(call.conversation, call.lease);
      return { ok: true };
    case "tools.read":
      return { ok: true, tools: (await store.toolsRead(call.conversation)) ?? null };
    case "tools.write":
      await store.toolsWrite(call.conversation, call.tools);
      return { ok: true };
    case "list":
      return { ok: true, conversations: await store.list() };
  }
}
