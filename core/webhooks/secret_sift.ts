import { type Secret, sha256Hex } from "../base/mod.ts";
import { hmacVerifies } from "./github_sift.ts";
import { headerId, type Sift, type SiftVerdict, type WebhookPost } from "./sift.ts";

/**
 * A plain shared secret: `Authorization: Bearer <secret>`, compared in constant time (as the
 * HMAC of a fixed label under each side, so neither length nor prefix shows in the time taken).
 * The post's id is its `Idempotency-Key` or `X-Request-Id` header, or else the SHA-256 of its body,
 * so the same body sent twice is one post.
 */
export const SECRET_SIFT: Sift = {
  name: "secret",
  summary:
    "Authorization: Bearer <secret>; the id from Idempotency-Key or X-Request-Id, else the body's hash",
  async check(post: WebhookPost, secrets: readonly Secret[]): Promise<SiftVerdict> {
    const given = /^Bearer (\S{1,512})$/.exec(post.headers.get("authorization")?.trim() ?? "")?.[1];
    if (given === undefined) return { ok: false, status: 401, reason: "no Authorization: Bearer <secret>" };
    let matched = false;
    for (const secret of secrets) {
      if (await sameSecret(secret, given)) matched = true;
    }
    if (!matched) return { ok: false, status: 401, reason: "the secret is not the hook's" };
    const id = headerId(post.headers, "idempotency-key") ?? headerId(post.headers, "x-request-id") ??
      `sha256:${sha256Hex(post.body)}`;
    return { ok: true, id, about: `post ${id}` };
  },
};

const LABEL = new TextEncoder().encode("link-webhook-secret-v1");

async function sameSecret(secret: Secret, given: string): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(given),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, LABEL));
  return await hmacVerifies(secret, mac, LABEL);
}
