import {
  type AgentKey,
  type Clock,
  closeQuietly,
  LinkError,
  makeProof,
  SYSTEM_CLOCK,
  writeAll,
} from "../core/base/mod.ts";
import {
  BRIDGE_LABEL,
  bridgeErrorCode,
  isValidClaim,
  MAX_PROOF_LINE,
  parseChallengeLine,
  proofLine,
  PROVEN_LINE,
  readErrorLine,
} from "./bridge_wire.ts";
import { LineReader } from "./line_reader.ts";
import type { BridgeAddr } from "./serve_bridge.ts";

/** Who calls and for what: the agent proves the call with its key (BRG-4). */
export interface BridgeCaller {
  agentId: string;
  owner: string;
  /** The agent's key; only a proof of the bridge's challenge travels (BRG-8). */
  key: AgentKey;
  action: string;
  /** Hangs up. */
  signal?: AbortSignal;
  /** Time for the waits between tries; tests drive it. */
  clock?: Clock;
}

/**
 * Waits before each new try when the bridge is busy or the connection broke before the proof was
 * taken (nothing has run then): a caller's own newer connections take its older ones' places
 * (BRG-13), so a burst of calls from one agent can push some of them out.
 */
const RETRY_DELAYS_MS = [25, 100, 400];

/** Connects and proves the call, trying again while nothing has run; `first` goes with the proof. */
export async function provenConnection(
  addr: string | BridgeAddr,
  caller: BridgeCaller,
  first: string,
): Promise<{ conn: Deno.Conn; reader: LineReader }> {
  if (!isValidClaim(caller)) {
    const message = `Cannot call a bridge as agent "${caller.agentId}": the identity or action cannot travel`;
    throw new LinkError("INTERNAL", message);
  }
  for (let attempt = 0;; attempt++) {
    const conn = await connectTo(addr);
    const onAbort = () => closeQuietly(conn);
    caller.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      caller.signal?.throwIfAborted();
      const reader = new LineReader(conn);
      await prove(conn, reader, caller, first);
      caller.signal?.throwIfAborted();
      return { conn, reader };
    } catch (err) {
      closeQuietly(conn);
      const failure = asLinkError(err, caller);
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !mayRetry(failure) || caller.signal?.aborted) throw failure;
      await (caller.clock ?? SYSTEM_CLOCK).sleep(delay, caller.signal);
    } finally {
      caller.signal?.removeEventListener("abort", onAbort);
    }
  }
}

function mayRetry(err: unknown): boolean {
  if (!(err instanceof LinkError)) return false;
  const code = bridgeErrorCode(err);
  return code === "busy" || (code === undefined && err.code === "REFUSED");
}

async function connectTo(addr: string | BridgeAddr): Promise<Deno.Conn> {
  const where = typeof addr === "string" ? { path: addr } : addr;
  try {
    return "path" in where
      ? await Deno.connect({ transport: "unix", path: where.path })
      : await Deno.connect({ hostname: where.hostname, port: where.port });
  } catch (err) {
    const name = "path" in where ? where.path : `${where.hostname}:${where.port}`;
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot reach the bridge at "${name}": nothing answers there`, {
      hint: "Start the agent with `lnk agent start`, then try again",
      cause: err,
    });
  }
}

/** Reads the challenge, sends the proof (and what goes with it), waits for `proven`. */
async function prove(
  conn: Deno.Conn,
  reader: LineReader,
  caller: BridgeCaller,
  first: string,
): Promise<void> {
  const line = await reader.readLine(MAX_PROOF_LINE, "challenge");
  const challenge = line === undefined ? undefined : parseChallengeLine(line);
  if (challenge === undefined) throw failureOf(line, caller.action);
  const claim = { agentId: caller.agentId, owner: caller.owner, action: caller.action };
  const mac = makeProof(caller.key, BRIDGE_LABEL, challenge, claim.agentId, claim.owner, claim.action);
  // A bridge that turned the call away may hang up mid-write: its error line is still to be read.
  const written = await writeAll(conn, new TextEncoder().encode(proofLine(claim, mac) + first)).then(
    () => undefined,
    (err) => err,
  );
  const next = await reader.readLine(64 * 1024, "answer to the proof").catch(() => undefined);
  if (next === PROVEN_LINE && written === undefined) return;
  if (next === undefined && written !== undefined) throw written;
  throw failureOf(next, caller.action);
}

/** The bridge's error line as the error it names, or a hang-up. */
export function failureOf(line: string | undefined, action: string): LinkError {
  if (line === undefined) {
    return new LinkError("REFUSED", `Cannot call "${action}": the bridge hung up without an answer`);
  }
  const said = readErrorLine(tryJson(line));
  if (said) return said;
  return new LinkError(
    "REFUSED",
    `Cannot call "${action}": the bridge answered something other than a bridge line`,
  );
}

/** The caller's own abort as its reason; a LinkError as it is; a broken connection as a hang-up. */
export function asLinkError(err: unknown, caller: BridgeCaller): unknown {
  if (caller.signal?.aborted) return caller.signal.reason;
  if (err instanceof LinkError) return err;
  const message = `Cannot call "${caller.action}": the connection to the bridge broke`;
  return new LinkError("REFUSED", message, { cause: err });
}

export function tryJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
