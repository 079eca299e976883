import { z } from "zod";
import { LinkError } from "../core/base/mod.ts";

/**
 * The lines every bridge speaks (U-2, U-11): the bridge's challenge, the caller's proof, then
 * `proven` or one error line; a typed call adds one JSON line each way.
 */

/** Why a bridge turned a call away (U-11), the `code` of its one error line. */
export type BridgeErrorCode = "busy" | "unproven" | "deadline" | "refused" | "invalid";

/** The one error shape of every bridge: `{"error":{"code":…,"message":…}}` on one line. */
export const BridgeErrorLine = z.strictObject({
  error: z.strictObject({
    code: z.enum(["busy", "unproven", "deadline", "refused", "invalid"]),
    message: z.string(),
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

/** One error line, newline included. */
export function errorLine(code: BridgeErrorCode, message: string): string {
  return `${JSON.stringify({ error: { code, message } } satisfies BridgeErrorLine)}\n`;
}

/** One answer line, newline included. */
export function answerLine(answer: unknown): string {
  return `${JSON.stringify({ answer: answer ?? null })}\n`;
}

const LINK_CODE: Record<BridgeErrorCode, "REFUSED" | "PROOF_FAILED" | "TIMEOUT"> = {
  busy: "REFUSED",
  unproven: "PROOF_FAILED",
  deadline: "TIMEOUT",
  refused: "REFUSED",
  invalid: "REFUSED",
};

/**
 * The error a bridge answers with, or a caller receives: a LinkError whose cause carries the
 * wire code, so `bridgeErrorCode(err)` tells busy from refused.
 */
export function bridgeFailure(code: BridgeErrorCode, message: string, hint?: string): LinkError {
  return new LinkError(LINK_CODE[code], message, { hint, cause: { bridgeCode: code } });
}

/** The wire code of an error made by `bridgeFailure`, else undefined. */
export function bridgeErrorCode(err: unknown): BridgeErrorCode | undefined {
  if (!(err instanceof LinkError)) return undefined;
  const cause = err.cause as { bridgeCode?: unknown } | undefined;
  const code = cause?.bridgeCode;
  return BridgeErrorLine.shape.error.shape.code.safeParse(code).data;
}
