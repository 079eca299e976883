import { z } from "zod";
import { type AgentKey, LinkError, makeProof } from "../core/base/mod.ts";
import {
  BRIDGE_LABEL,
  BridgeAnswerLine,
  BridgeErrorLine,
  bridgeFailure,
  isValidClaim,
  MAX_PROOF_LINE,
  parseChallengeLine,
  proofLine,
  PROVEN_LINE,
} from "./bridge_wire.ts";
import { relayFrom, relayTo, writeAll } from "./conn_streams.ts";
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
}

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

/** Makes a typed call to a bridge: challenge, proof, body; returns its answer or throws its error. */
export async function callBridge<T = unknown>(
  addr: string | BridgeAddr,
  options: CallBridgeOptions<T>,
): Promise<T> {
  const conn = await connectTo(addr, options);
  const onAbort = () => closeQuietly(conn);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const reader = new LineReader(conn);
    const body = `${JSON.stringify(options.body ?? null)}\n`;
    await prove(conn, reader, options, body);
    const line = await reader.readLine(options.maxAnswerBytes ?? 16 * 1024 * 1024, "answer");
    const answer = parseAnswer(line, options.action);
    if (!options.answer) return answer as T;
    const result = options.answer.safeParse(answer);
    if (result.success) return result.data;
    throw new LinkError(
      "REFUSED",
      `Cannot use the answer to "${options.action}": ${z.prettifyError(result.error)}`,
    );
  } catch (err) {
    throw hungUp(err, options);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    closeQuietly(conn);
  }
}

/** Opens a call that carries bytes: returns the connection once the proof is accepted. */
export async function openBridge(addr: string | BridgeAddr, options: BridgeCaller): Promise<BridgeStream> {
  const conn = await connectTo(addr, options);
  const onAbort = () => closeQuietly(conn);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const reader = new LineReader(conn);
    await prove(conn, reader, options, "");
    // carries: the relayed bytes after the proof belong to the bridge's own protocol.
    const readable = relayFrom(conn, reader.takeRest());
    const writable = relayTo(conn);
    const close = () => {
      options.signal?.removeEventListener("abort", onAbort);
      closeQuietly(conn);
    };
    return { readable, writable, close, [Symbol.asyncDispose]: () => Promise.resolve(close()) };
  } catch (err) {
    options.signal?.removeEventListener("abort", onAbort);
    closeQuietly(conn);
    throw hungUp(err, options);
  }
}

/** A LinkError as it is; the caller's own abort as its reason; a broken connection as a hang-up. */
function hungUp(err: unknown, caller: BridgeCaller): unknown {
  if (err instanceof LinkError) return err;
  if (caller.signal?.aborted) return caller.signal.reason;
  return new LinkError("REFUSED", `Cannot call "${caller.action}": the connection to the bridge broke`, {
    cause: err,
  });
}

async function connectTo(addr: string | BridgeAddr, caller: BridgeCaller): Promise<Deno.Conn> {
  if (!isValidClaim(caller)) {
    throw new LinkError(
      "INTERNAL",
      `Cannot call a bridge as agent "${caller.agentId}": the identity or action cannot travel`,
    );
  }
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

/** Reads the challenge, sends the proof (and a typed call's body with it), waits for `proven`. */
async function prove(conn: Deno.Conn, reader: LineReader, caller: BridgeCaller, body: string): Promise<void> {
  const first = await reader.readLine(MAX_PROOF_LINE, "challenge");
  const challenge = first === undefined ? undefined : parseChallengeLine(first);
  if (challenge === undefined) throw failureOf(first, caller.action);
  const claim = { agentId: caller.agentId, owner: caller.owner, action: caller.action };
  const mac = makeProof(caller.key, BRIDGE_LABEL, challenge, claim.agentId, claim.owner, claim.action);
  await writeAll(conn, new TextEncoder().encode(proofLine(claim, mac) + body));
  const next = await reader.readLine(64 * 1024, "answer to the proof");
  if (next !== PROVEN_LINE) throw failureOf(next, caller.action);
}

function parseAnswer(line: string | undefined, action: string): unknown {
  const parsed = line === undefined ? undefined : BridgeAnswerLine.safeParse(tryJson(line));
  if (parsed?.success) return parsed.data.answer;
  throw failureOf(line, action);
}

/** The bridge's error line as the error it names, or a hang-up. */
function failureOf(line: string | undefined, action: string): LinkError {
  if (line === undefined) {
    return new LinkError("REFUSED", `Cannot call "${action}": the bridge hung up without an answer`);
  }
  const parsed = BridgeErrorLine.safeParse(tryJson(line));
  if (parsed.success) return bridgeFailure(parsed.data.error.code, parsed.data.error.message);
  return new LinkError(
    "REFUSED",
    `Cannot call "${action}": the bridge answered with something else than a bridge line`,
  );
}

function tryJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
