import { z } from "zod";
import type { BridgePeer } from "./bridge_peer.ts";
import { bridgeFailure } from "./bridge_wire.ts";
import { relayFrom, relayTo } from "./conn_streams.ts";
import type { LineReader } from "./line_reader.ts";

/** A proven call, as its bridge sees it: who is calling, for what. */
export interface BridgeCall {
  /** The bridge's name. */
  readonly bridge: string;
  /** The calling agent, proven with its key (BRG-4, BRG-15). */
  readonly agentId: string;
  /** The calling agent's owner, proven with it. */
  readonly owner: string;
  /** The action named in the proof. */
  readonly action: string;
  /** Who connected, as the system says: never which agent (BRG-6). */
  readonly peer: BridgePeer;
  /** Aborts when the bridge stops. */
  readonly signal: AbortSignal;
}

/**
 * The connection of a proven call. A typed call reads its one body line with `body()` and
 * returns its answer; a call that carries a stream takes `readable` and `writable` instead, and
 * then no answer line is written (GRT-27: the server branches once, here).
 */
export interface BridgeConn {
  /** Reads the call's one JSON body line and checks it; a bad one is answered `invalid`. */
  body<T>(schema: z.ZodType<T>): Promise<T>;
  /** The caller's bytes after its proof (carries: an untyped relay, GRT-27). */
  readonly readable: ReadableStream<Uint8Array>;
  /** Bytes to the caller; closing it ends the caller's reading side (carries). */
  readonly writable: WritableStream<Uint8Array>;
}

/** What a bridge does with a proven call: its typed answer, or undefined after relaying. */
export type BridgeHandler = (call: BridgeCall, conn: BridgeConn) => Promise<unknown>;

/** The server side of a proven call's connection. */
export class CallConn implements BridgeConn {
  #conn: Deno.Conn;
  #reader: LineReader;
  #maxBodyBytes: number;
  #action: string;
  #bodyRead = false;
  #relayed = false;
  #readable: ReadableStream<Uint8Array> | undefined;
  #writable: WritableStream<Uint8Array> | undefined;

  constructor(conn: Deno.Conn, reader: LineReader, options: { maxBodyBytes: number; action: string }) {
    this.#conn = conn;
    this.#reader = reader;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#action = options.action;
  }

  /** Whether the handler took the raw bytes, so no answer line follows. */
  get relayed(): boolean {
    return this.#relayed;
  }

  async body<T>(schema: z.ZodType<T>): Promise<T> {
    if (this.#bodyRead || this.#relayed) {
      throw bridgeFailure("invalid", `Cannot read the body of "${this.#action}" twice`);
    }
    this.#bodyRead = true;
    const line = await this.#reader.readLine(this.#maxBodyBytes, `body of "${this.#action}"`);
    if (line === undefined) {
      throw bridgeFailure("invalid", `Cannot read the body of "${this.#action}": the caller ended first`);
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw bridgeFailure("invalid", `Cannot read the body of "${this.#action}": it is not JSON`);
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      const why = z.prettifyError(result.error).replaceAll("\n", " ");
      throw bridgeFailure("invalid", `Cannot read the body of "${this.#action}": ${why}`);
    }
    return result.data;
  }

  get readable(): ReadableStream<Uint8Array> {
    this.#relayed = true;
    this.#readable ??= relayFrom(this.#conn, this.#reader.takeRest());
    return this.#readable;
  }

  get writable(): WritableStream<Uint8Array> {
    this.#relayed = true;
    this.#writable ??= relayTo(this.#conn);
    return this.#writable;
  }
}
