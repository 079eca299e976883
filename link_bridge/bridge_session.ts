import {
  type AgentKey,
  checkProof,
  type Clock,
  decodeKey,
  LinkError,
  type LinkPaths,
  logger,
  newChallenge,
  writeAll,
} from "../core/base/mod.ts";
import { type BridgeHandler, CallConn } from "./bridge_call.ts";
import { type BridgePeer, peerOf, placesKey } from "./bridge_peer.ts";
import {
  answerLine,
  BRIDGE_LABEL,
  bridgeErrorCode,
  bridgeFailure,
  challengeLine,
  errorLine,
  MAX_PROOF_LINE,
  parseProofLine,
  type ProofClaim,
  PROVEN_LINE,
} from "./bridge_wire.ts";
import { LineReader } from "./line_reader.ts";
import type { UnprovenPlaces } from "./unproven_places.ts";

const log = logger("bridge");

/** The whole proof exchange, challenge sent to proof checked, must end within this (BRG-12). */
export const PROOF_DEADLINE_MS = 5_000;

/** Finds the key of an agent the bridge serves, or undefined when it serves no such agent. */
export type KeyFor = (agentId: string, owner: string) => AgentKey | undefined | Promise<AgentKey | undefined>;

/** What one connection needs from its bridge. */
export interface SessionContext {
  name: string;
  cap: number;
  clock: Clock;
  keyFor: KeyFor;
  checkKeyring: LinkPaths | undefined;
  handle: BridgeHandler;
  places: UnprovenPlaces;
  maxBodyBytes: number;
  /** Proven calls held now: shared by every connection of the bridge. */
  calls: { count: number };
  /** Aborts when the bridge stops. */
  signal: AbortSignal;
}

const STOPPING = new Error("bridge stopping");

/**
 * Serves one connection: a place, the challenge, the proof within the deadline, then the call.
 * `placed` is called once the caller is known and its place taken (or refused).
 */
export async function serveConnection(
  conn: Deno.Conn,
  ctx: SessionContext,
  placed: () => void = () => {},
): Promise<void> {
  const peer = await peerOf(conn);
  const ended = new AbortController();
  const place = ctx.places.take(placesKey(peer), () => {
    ended.abort(
      bridgeFailure("busy", "Cannot keep this connection: a newer one from the same user took its place"),
    );
  });
  placed();
  if (!place) {
    const message = `Cannot take the connection: bridge "${ctx.name}" has no place left for unproven callers`;
    return await refuse(conn, ctx, peer, bridgeFailure("busy", message));
  }
  const onStop = () => ended.abort(STOPPING);
  ctx.signal.addEventListener("abort", onStop, { once: true });
  const deadline = ctx.clock.sleep(PROOF_DEADLINE_MS, ended.signal).then(
    () => ended.abort(bridgeFailure("deadline", "Cannot take the call: its proof did not arrive within 5 s")),
    () => {},
  );
  const reader = new LineReader(conn);
  let claim: ProofClaim | undefined;
  try {
    claim = await untilAborted(exchange(conn, reader, ctx), ended.signal);
  } catch (err) {
    return await refuse(conn, ctx, peer, err);
  } finally {
    place.release();
    ended.abort(STOPPING);
    ctx.signal.removeEventListener("abort", onStop);
    await deadline;
  }
  if (!claim || ctx.signal.aborted) return;
  await runCall(conn, reader, ctx, { ...claim, peer });
}

/** Sends the challenge and checks the proof line; undefined when the caller leaves first. */
async function exchange(
  conn: Deno.Conn,
  reader: LineReader,
  ctx: SessionContext,
): Promise<ProofClaim | undefined> {
  const challenge = newChallenge();
  await writeAll(conn, new TextEncoder().encode(challengeLine(challenge)));
  const line = await reader.readLine(MAX_PROOF_LINE, "proof line");
  if (line === undefined) return undefined;
  const proof = parseProofLine(line);
  if (!proof) {
    throw bridgeFailure(
      "invalid",
      'Cannot read the proof line: expected "proof <agent id> <owner> <action> <hmac>"',
    );
  }
  const { proof: mac, ...claim } = proof;
  const key = await ctx.keyFor(claim.agentId, claim.owner);
  if (!key) {
    const message =
      `Cannot take the call: bridge "${ctx.name}" serves no agent "${claim.agentId}" of "${claim.owner}"`;
    throw bridgeFailure("refused", message);
  }
  const checks = (k: AgentKey) =>
    checkProof(k, BRIDGE_LABEL, challenge, mac, claim.agentId, claim.owner, claim.action);
  if (!checks(key)) {
    throw bridgeFailure(
      "unproven",
      `Cannot take the call: its proof does not check for agent "${claim.agentId}"`,
    );
  }
  if (ctx.checkKeyring) {
    const bound = await readBoundKey(ctx.checkKeyring, claim.agentId);
    if (!bound || !checks(bound)) {
      const message = `Cannot take the call: agent "${claim.agentId}" no longer holds the key it proved with`;
      throw bridgeFailure("unproven", message, "Start the agent again, then make the call again");
    }
  }
  return claim;
}

/** The keyring's key for the agent now (BRG-14), undefined when unbound or unreadable. */
async function readBoundKey(paths: LinkPaths, agentId: string): Promise<AgentKey | undefined> {
  try {
    return decodeKey(await Deno.readTextFile(paths.keyFile(agentId)));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) log.warn("Cannot read the keyring", { agent: agentId, err });
    return undefined;
  }
}

async function runCall(
  conn: Deno.Conn,
  reader: LineReader,
  ctx: SessionContext,
  call: ProofClaim & { peer: BridgePeer },
): Promise<void> {
  if (ctx.calls.count >= ctx.cap) {
    const message = `Cannot take the call: bridge "${ctx.name}" holds its ${ctx.cap} calls already`;
    const hint = "Wait for the agent's other calls to finish, then try again";
    return await refuse(conn, ctx, call.peer, bridgeFailure("busy", message, hint));
  }
  ctx.calls.count++;
  try {
    await writeAll(conn, new TextEncoder().encode(`${PROVEN_LINE}\n`));
    const callConn = new CallConn(conn, reader, { maxBodyBytes: ctx.maxBodyBytes, action: call.action });
    let answer: unknown;
    try {
      answer = await ctx.handle({ bridge: ctx.name, ...call, signal: ctx.signal }, callConn);
    } catch (err) {
      if (!callConn.relayed) await refuse(conn, ctx, call.peer, err);
      else log.debug("A relayed call ended with an error", { bridge: ctx.name, err });
      return;
    }
    if (!callConn.relayed) await writeAll(conn, new TextEncoder().encode(answerLine(answer)));
  } catch (err) {
    log.debug("A call ended early", { bridge: ctx.name, agent: call.agentId, err });
  } finally {
    ctx.calls.count--;
  }
}

/** Answers with the one error line (U-11); a bridge that is stopping just hangs up. */
async function refuse(conn: Deno.Conn, ctx: SessionContext, peer: BridgePeer, err: unknown): Promise<void> {
  if (err === STOPPING || ctx.signal.aborted) return;
  const error = wireError(err);
  log.debug("Bridge turned a call away", { bridge: ctx.name, code: error.code, uid: peer.uid });
  if (error !== err) log.warn("Bridge call failed", { bridge: ctx.name, err });
  await writeAll(conn, new TextEncoder().encode(errorLine(error))).catch(() => {});
}

/**
 * What a bridge says of anything it or its handler threw: the error itself when its code is one
 * of the five a bridge gives, else one of them with its message (REFUSED, or INVALID for a call
 * not valid), and nothing of an error that is not Link's.
 */
export function wireError(err: unknown): LinkError {
  if (err instanceof LinkError && bridgeErrorCode(err)) return err;
  if (err instanceof LinkError) {
    const invalid = err.code === "CONFIG_INVALID" || err.code === "USAGE";
    return bridgeFailure(invalid ? "invalid" : "refused", err.message);
  }
  return bridgeFailure("refused", "Cannot answer the call: the bridge failed, and its log says why");
}

/** Waits for `work`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
