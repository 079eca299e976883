import { z } from "zod";
import { errorFromWire, errorWire, LinkError } from "../core/base/mod.ts";

/**
 * The lines every bridge speaks (U-2, U-11): the bridge's challenge, the caller's proof, then
 * `proven` or one error line; a typed call adds one JSON line each way.
 */

/** Why a bridge turned a call away (U-11): the five reasons a bridge gives. */
export type BridgeErrorCode = "busy" | "unproven" | "deadline" | "refused" | "invalid";

/** Each reason's code in Link's one error shape, the `code` of a bridge's error line. */
const LINK_CODE = {
  busy: "BUSY",
  unproven: "PROOF_FAILED",
  deadline: "TIMEOUT",
  refused: "REFUSED",
  invalid: "INVALID",
} as const satisfies Record<BridgeErrorCode, string>;
type BridgeLinkCode = typeof LINK_CODE[BridgeErrorCode];

const REASON = Object.fromEntries(
  Object.entries(LINK_CODE).map(([reason, code]) => [code, reason]),
) as Record<
  BridgeLinkCode,
  BridgeErrorCode
>;

/**
 * The one error shape of every bridge, Link's own: `{"error":{"code","message","hint"}}` on one
 * line, the code one of the five a bridge gives (BUSY, PROOF_FAILED, TIMEOUT, REFUSED, INVALID).
 */
export const BridgeErrorLine = z.strictObject({
  error: z.strictObject({
    code: z.enum(["BUSY", "PROOF_FAILED", "TIMEOUT", "REFUSED", "INVALID"]),
    message: z.string(),
    hint: z.string().nullable(),
  }),
});
export type BridgeErrorLine = z.infer<typeof BridgeErrorLine>;

/** A typed call's answer line: `{"answer":…}`. */
export const BridgeAnswerLine = z.strictObject({ answer: z.unknown() });
export type BridgeAnswerLine = z.infer<typeof BridgeAnswerLine>;

/** The line a bridge sends once the proof checks and a place for the call is free. */
export const PROVEN_LINE = "proven";

/** The proof label of every bridge call (BRG-6). */
export const BRIDGE_LABEL = "link-bridge-v1";

/** What a caller claims in its proof line. */
export interface ProofClaim {
  agentId: string;
  owner: string;
  action: string;
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const OWNER = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}$/;
const ACTION = /^[a-z][a-z0-9._-]{0,63}$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** Longest challenge or proof line a bridge reads, newline included. */
export const MAX_PROOF_LINE = 512;

/** `challenge <64 hex>\n`. */
export function challengeLine(challenge: string): string {
  return `challenge ${challenge}\n`;
}

/** The challenge in a challenge line, or undefined when the line is not one. */
export function parseChallengeLine(line: string): string | undefined {
  const match = /^challenge ([0-9a-f]{64})$/.exec(line);
  return match?.[1];
}

/** `proof <agent id> <owner> <action> <hmac hex>\n`. */
export function proofLine(claim: ProofClaim, proof: string): string {
  return `proof ${claim.agentId} ${claim.owner} ${claim.action} ${proof}\n`;
}

/** The claim and proof of a proof line, or undefined when the line is not one. */
export function parseProofLine(line: string): (ProofClaim & { proof: string }) | undefined {
  const words = line.split(" ");
  if (words.length !== 5 || words[0] !== "proof") return undefined;
  const [, agentId = "", owner = "", action = "", proof = ""] = words;
  if (!AGENT_ID.test(agentId) || !OWNER.test(owner) || !ACTION.test(action) || !HEX64.test(proof)) {
    return undefined;
  }
  return { agentId, owner, action, proof };
}

/** Tells whether a claim's words can travel in a proof line. */
export function isValidClaim(claim: ProofClaim): boolean {
  return AGENT_ID.test(claim.agentId) && OWNER.test(claim.owner) && ACTION.test(claim.action);
}

/** One error line, newline included: the error in the one wire shape. */
export function errorLine(err: LinkError): string {
  return `${JSON.stringify(errorWire(err))}\n`;
}

/** The error an error line says, its code kept, or undefined when the line is not one. */
export function readErrorLine(value: unknown): LinkError | undefined {
  if (!BridgeErrorLine.safeParse(value).success) return undefined;
  const error = errorFromWire(value)!;
  return bridgeFailure(REASON[error.code as BridgeLinkCode], error.message, error.hint);
}

/** One answer line, newline included. */
export function answerLine(answer: unknown): string {
  return `${JSON.stringify({ answer: answer ?? null })}\n`;
}

/** The error a bridge answers with, or a caller receives, for one of the five reasons. */
export function bridgeFailure(reason: BridgeErrorCode, message: string, hint?: string): LinkError {
  return new LinkError(LINK_CODE[reason], message, { hint });
}

/** Which of the five reasons an error is, by its code, else undefined (an error a bridge never gives). */
export function bridgeErrorCode(err: unknown): BridgeErrorCode | undefined {
  if (!(err instanceof LinkError)) return undefined;
  return REASON[err.code as BridgeLinkCode];
}
