import { z } from "zod";
import { closeQuietly, LinkError } from "../core/base/mod.ts";
import { BridgeAnswerLine } from "./bridge_wire.ts";
import { relayFrom, relayTo } from "./conn_streams.ts";
import { asLinkError, type BridgeCaller, failureOf, provenConnection, tryJson } from "./proven_connection.ts";
import type { BridgeAddr } from "./serve_bridge.ts";

/** A typed call: one JSON body line, one answer line. */
export interface CallBridgeOptions<T> extends BridgeCaller {
  body?: unknown;
  /** Checks the answer; without it the answer is returned unchecked as unknown. */
  answer?: z.ZodType<T>;
  /** Longest answer line (default 16 MiB). */
  maxAnswerBytes?: number;
}

/** A proven call that carries bytes (carries). */
export interface BridgeStream extends AsyncDisposable {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  close(): void;
}

/**
 * Makes a typed call to a bridge: challenge, proof and body, then its answer; throws the
 * bridge's error (`bridgeErrorCode(err)` names it). Tries again while the bridge is busy
 * before the call runs.
 */
export async function callBridge<T = unknown>(
  addr: string | BridgeAddr,
  options: CallBridgeOptions<T>,
): Promise<T> {
  const body = `${JSON.stringify(options.body ?? null)}\n`;
  const { conn, reader } = await provenConnection(addr, options, body);
  const onAbort = () => closeQuietly(conn);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    options.signal?.throwIfAborted();
    const line = await reader.readLine(options.maxAnswerBytes ?? 16 * 1024 * 1024, "answer");
    const parsed = line === undefined ? undefined : BridgeAnswerLine.safeParse(tryJson(line));
    if (!parsed?.success) throw failureOf(line, options.action);
    if (!options.answer) return parsed.data.answer as T;
    const result = options.answer.safeParse(parsed.data.answer);
    if (result.success) return result.data;
    const why = z.prettifyError(result.error).replaceAll("\n", " ");
    throw new LinkError("REFUSED", `Cannot use the answer to "${options.action}": ${why}`);
  } catch (err) {
    throw asLinkError(err, options);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    closeQuietly(conn);
  }
}

/** Opens a call that carries bytes: the connection once the proof is taken. */
export async function openBridge(addr: string | BridgeAddr, options: BridgeCaller): Promise<BridgeStream> {
  const { conn, reader } = await provenConnection(addr, options, "");
  const onAbort = () => closeQuietly(conn);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  // carries: the bytes after the proof belong to the bridge's own protocol.
  const readable = relayFrom(conn, reader.takeRest());
  const writable = relayTo(conn);
  const close = () => {
    options.signal?.removeEventListener("abort", onAbort);
    closeQuietly(conn);
  };
  return { readable, writable, close, [Symbol.asyncDispose]: () => Promise.resolve(close()) };
}
