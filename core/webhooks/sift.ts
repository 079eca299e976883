import type { Secret } from "../base/mod.ts";

/** One post as its sift sees it: the head as sent and the whole body, its bytes untouched. */
export interface WebhookPost {
  headers: Headers;
  body: Uint8Array;
}

/**
 * What a sift made of a post: taken, with the id that tells a redelivery from a new post and a
 * line saying what it is; or refused, with the status the poster gets. A verdict says nothing of
 * who the post is from: that is the hook's own, `webhook:<name>` (WHK-4).
 */
export type SiftVerdict =
  | { ok: true; id: string; about: string }
  | { ok: false; status: 400 | 401; reason: string };

/**
 * A webhook's sift plugin (WHK-3): checks that a post was signed with one of the hook's secrets
 * (the current one first, then the one a roll left for 24 hours, WHK-7).
 */
export interface Sift {
  readonly name: string;
  /** What `lnk agent webhook add --help` says the sender is told to send. */
  readonly summary: string;
  check(post: WebhookPost, secrets: readonly Secret[]): Promise<SiftVerdict>;
}

/** An id a header gave: printable, at most 200 characters; undefined for anything else. */
export function headerId(headers: Headers, name: string): string | undefined {
  const value = headers.get(name)?.trim();
  return value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
}
