import {
  type AgentKey,
  type Clock,
  errorWire,
  LinkError,
  logger,
  makeProof,
  toLinkError,
  writeAll,
} from "../../base/mod.ts";
import { PROOF_PATH } from "../../../connections/mod.ts";
import { headerValues, parseRequestHead, type RequestHead } from "../../../http1/mod.ts";

const log = logger("door");

/** How long the door keeps reading a caller it answered 503, so the answer is not lost to a reset. */
const DRAIN_MS = 5_000;

/** How much of a request head the door keeps to read a proof request's fields. */
const HEAD_KEPT = 8 * 1024;

/** The agent a door stands for, so its 503 to a proof request proves it as the harness would. */
export interface DoorProver {
  agentId: string;
  key: AgentKey;
}

/**
 * Answers a caller the agent could not be woken for: HTTP 503 with the error in the one wire shape
 * (its code kept), then a lingering close. To a proof request for the agent, with `prover`, the
 * answer carries the proof the harness would have given (`link-endpoint-v1`), so Link's client
 * can tell the door's reason from a squatter's words and show it. The answer waits for the
 * caller's request head (or a hang-up, or the drain's deadline): an HTTP client that gets a
 * response before it has sent its request takes it for garbage. `first` is a read of the
 * caller's begun already.
 */
export async function answerUnavailable(
  conn: Deno.Conn,
  err: unknown,
  clock: Clock,
  options: { first?: Promise<Uint8Array | null>; prover?: DoorProver } = {},
): Promise<void> {
  const error = err instanceof LinkError
    ? err
    : new LinkError("SERVICE_FAILED", "Cannot wake the agent: starting it failed", {
      cause: toLinkError(err),
    });
  log.warn("Door cannot reach the agent", { err });
  const request = await awaitRequestHead(conn, clock, options.first);
  if (request === undefined) return;
  const proof = options.prover ? proofHeader(request, options.prover) : "";
  const body = new TextEncoder().encode(`${JSON.stringify(errorWire(error))}\n`);
  const head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n" + proof +
    `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  await writeAll(conn, new TextEncoder().encode(head));
  await writeAll(conn, body);
  await conn.closeWrite().catch(() => {});
  await drain(conn, clock);
}

/**
 * The `Link-Proof` header line for a proof request for the prover's agent, else "": the request,
 * read by the HTTP/1.1 grammar, is `GET /_link/proof`, its one `Link-Agent-Id` the agent's and its
 * one `Link-Challenge` 64 hex.
 */
function proofHeader(head: string, prover: DoorProver): string {
  let request: RequestHead;
  try {
    request = parseRequestHead(head.split("\r\n"));
  } catch {
    return ""; // not a request HTTP/1.1 reads: no proof
  }
  if (request.method !== "GET" || request.target !== PROOF_PATH) return "";
  const once = (name: string) => {
    const values = headerValues(request.headers, name);
    return values.length === 1 ? values[0] : undefined;
  };
  const challenge = once("link-challenge");
  if (once("link-agent-id") !== prover.agentId || !challenge || !/^[0-9a-f]{64}$/.test(challenge)) return "";
  return `Link-Proof: ${makeProof(prover.key, "link-endpoint-v1", challenge, prover.agentId)}\r\n`;
}

/**
 * Reads until the end of a request head and returns it (its first 8 KiB), or undefined when the
 * caller hung up or the deadline came first.
 */
async function awaitRequestHead(
  conn: Deno.Conn,
  clock: Clock,
  first?: Promise<Uint8Array | null>,
): Promise<string | undefined> {
  const done = new AbortController();
  let late = false;
  const deadline = clock.sleep(DRAIN_MS, done.signal).then(() => {
    late = true;
    try {
      conn.close();
    } catch {
      // already closed
    }
  }, () => {});
  const buf = new Uint8Array(16 * 1024);
  let start = "";
  let seen = "";
  try {
    for (let pending = first; !seen.includes("\r\n\r\n"); pending = undefined) {
      const bytes = pending
        ? await pending
        : await conn.read(buf).then((n) => (n === null ? null : buf.subarray(0, n)), () => null);
      if (bytes === null) return undefined;
      const text = new TextDecoder().decode(bytes);
      if (start.length < HEAD_KEPT) start = (start + text).slice(0, HEAD_KEPT);
      // Of the rest, only the last bytes matter: where the head ends.
      seen = (seen + text).slice(-4096);
    }
    return late ? undefined : start.split("\r\n\r\n")[0];
  } finally {
    done.abort();
    await deadline;
  }
}

/** Reads what the caller still sends until it hangs up, for a while, so the 503 reaches it. */
/**
 * Answers a request the door refused before the agent saw it (TEAM-7): 403 with the error in
 * Link's one shape, the connection closed once the caller has read it; then `hangUp` lets go of
 * the agent's side, which was sent nothing of it meanwhile.
 */
export async function refuseRequest(
  conn: Deno.Conn,
  error: LinkError,
  clock: Clock,
  hangUp: () => void,
): Promise<void> {
  const body = new TextEncoder().encode(`${JSON.stringify(errorWire(error))}\n`);
  const head = "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n" +
    `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  try {
    await writeAll(conn, new TextEncoder().encode(head));
    await writeAll(conn, body);
    await conn.closeWrite().catch(() => {});
    await drain(conn, clock);
  } catch {
    // the caller went first
  } finally {
    hangUp();
  }
}

async function drain(conn: Deno.Conn, clock: Clock): Promise<void> {
  const done = new AbortController();
  const hangUp = () => {
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  const deadline = clock.sleep(DRAIN_MS, done.signal).then(hangUp, () => {});
  const buf = new Uint8Array(16 * 1024);
  try {
    while ((await conn.read(buf).catch(() => null)) !== null) { /* discard */ }
  } finally {
    done.abort();
    await deadline;
  }
}
