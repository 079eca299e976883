/**
 * The letters of a pairing code: 32 of them, so each is five random bits with no bias, and none a
 * person confuses with another when typing from a terminal onto a phone (no I, O, 0 or 1).
 */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const LENGTH = 8;

/**
 * A one-time pairing code from the system's cryptographic random source, shown as `ABCD-EFGH`.
 * Eight letters of five bits are 40 bits: 1.1 * 10^12 codes. Even a thousand guesses a second for
 * the code's ten minutes (600,000 guesses, far past what a chat platform lets senders send, and
 * each sender is ignored after five wrong codes) finds it with odds below one in a million (CON-6).
 */
export function newPairingCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(LENGTH));
  const letters = [...bytes].map((b) => ALPHABET[b & 31]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** Whether a message is the code: letter case, spaces and the dash are forgiven, nothing else. */
export function isPairingCode(text: string, code: string): boolean {
  return normalize(text) === normalize(code) && normalize(code).length === LENGTH;
}

function normalize(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, "");
}
