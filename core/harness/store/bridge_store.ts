import type { z } from "zod";
import { type AgentKey, LinkError } from "../../base/mod.ts";
import { bridgeErrorCode, callBridge } from "../../../link_bridge/mod.ts";
import type { DriverCall } from "./driver_protocol.ts";
import { storeOverCalls } from "./driver_client.ts";
import type { OpenStore } from "./files_store.ts";

/** Options for bridgeStore: the store bridge's socket, and the agent asking as itself. */
export interface BridgeStoreOptions {
  /** The store bridge's socket as the harness sees it (`.net/<id>/store.sock`). */
  socket: string;
  agentId: string;
  owner: string;
  /** The agent's key: only proofs of the bridge's challenges travel (BRG-8). */
  key: AgentKey;
}

/**
 * Calls in flight at once; the rest wait their turn. Below the bridge's places per user (U-10: 4),
 * so a harness's burst of calls never pushes its own unproven calls out (BRG-13).
 */
export const BRIDGE_STORE_IN_FLIGHT = 3;

/** Longest answer taken: a long conversation read whole. */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * The ConversationStore the harness uses when its conversations are kept by a driver outside the
 * sandbox (TRN-14): each operation is one proven call to the agent's store bridge, its action
 * the driver protocol's `op` and its body the driver protocol's call. The harness neither knows
 * nor cares which driver answers. Calls still running when it is closed are hung up.
 */
export function bridgeStore(options: BridgeStoreOptions): OpenStore {
  const closed = new AbortController();
  const turns = new InFlight(BRIDGE_STORE_IN_FLIGHT);
  const call = async <S extends z.ZodType>(request: DriverCall, schema: S): Promise<z.output<S>> => {
    await turns.enter();
    try {
      return await callBridge<z.output<S>>(options.socket, {
        agentId: options.agentId,
        owner: options.owner,
        key: options.key,
        action: request.op,
        body: request,
        answer: schema as z.ZodType<z.output<S>>,
        maxAnswerBytes: MAX_ANSWER_BYTES,
        signal: closed.signal,
      });
    } catch (err) {
      // A call the bridge found not valid is the caller's mistake, as a driver's USAGE is.
      if (bridgeErrorCode(err) === "invalid" && err instanceof LinkError) {
        throw new LinkError("USAGE", err.message, { cause: err });
      }
      throw err;
    } finally {
      turns.leave();
    }
  };
  return {
    ...storeOverCalls(call),
    [Symbol.asyncDispose](): Promise<void> {
      closed.abort(new LinkError("REFUSED", "Cannot finish the store call: the store was closed"));
      return Promise.resolve();
    },
  };
}

/** At most `limit` holders at once; the others wait in order. */
class InFlight {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  enter(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
