import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

/**
 * Labels keep each use of the agent's key apart, so a proof made for one use is worthless for
 * another (BRG-6): an endpoint proving itself, a caller proving itself to an endpoint, an agent
 * proving a call to its bridges.
 */
export type ProofLabel = "link-endpoint-v1" | "link-caller-v1" | "link-bridge-v1";

/** The bytes of an agent's key: 32 random bytes, hex on disk. */
export type AgentKey = Uint8Array;

/** Makes a fresh agent key. */
export function newAgentKey(): AgentKey {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** A fresh challenge: 32 random bytes, hex. */
export function newChallenge(): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The proof of a challenge: HMAC-SHA256(key, label NUL challenge NUL part NUL part ...), hex. */
export function makeProof(key: AgentKey, label: ProofLabel, challenge: string, ...parts: string[]): string {
  const message = [label, challenge, ...parts].join("\0");
  return bytesToHex(hmac(sha256, key, new TextEncoder().encode(message)));
}

/** Checks a proof in constant time. */
export function checkProof(
  key: AgentKey,
  label: ProofLabel,
  challenge: string,
  proof: string,
  ...parts: string[]
): boolean {
  const expected = makeProof(key, label, challenge, ...parts);
  if (!/^[0-9a-f]{64}$/.test(proof)) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ proof.charCodeAt(i);
  return diff === 0;
}

/** The key as stored in the keyring file. */
export function encodeKey(key: AgentKey): string {
  return bytesToHex(key);
}

/** Reads a key from the keyring file's text. */
export function decodeKey(text: string): AgentKey {
  return hexToBytes(text.trim());
}

/** SHA-256 of bytes, hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === "string" ? new TextEncoder().encode(data) : data));
}

/** The label of the memory embedding binding proof, as seeds/003 spells it (MEM-4). */
export const EMBEDDING_BINDING_LABEL = "memory embedding binding";

/**
 * The memory embedding binding proof (MEM-4): HMAC-SHA256 of the label and the binding's identity
 * (the agent's ID and its owner, NUL-joined) under the agent's key, hex. A new key (each start)
 * makes a new proof, so an old one is worthless (MEM-7).
 */
export function embeddingProof(key: AgentKey, binding: { agentId: string; owner: string }): string {
  const message = [EMBEDDING_BINDING_LABEL, binding.agentId, binding.owner].join("\0");
  return bytesToHex(hmac(sha256, key, new TextEncoder().encode(message)));
}
