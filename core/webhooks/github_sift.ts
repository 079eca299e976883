import type { Secret } from "../base/mod.ts";
import { headerId, type Sift, type SiftVerdict, type WebhookPost } from "./sift.ts";

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/**
 * GitHub's webhooks: `X-Hub-Signature-256` is `sha256=` and the HMAC-SHA256 of the raw body under
 * the hook's secret, checked in constant time (WebCrypto's verify); `X-GitHub-Delivery` is the
 * post's id, the same on a redelivery; `X-GitHub-Event` is named in the message.
 */
export const GITHUB_SIFT: Sift = {
  name: "github",
  summary: "GitHub's X-Hub-Signature-256 (HMAC-SHA256 of the body), X-GitHub-Delivery as the post's id",
  async check(post: WebhookPost, secrets: readonly Secret[]): Promise<SiftVerdict> {
    const signature = SIGNATURE.exec(post.headers.get("x-hub-signature-256")?.trim().toLowerCase() ?? "");
    if (!signature) {
      return { ok: false, status: 401, reason: "no X-Hub-Signature-256 of the form sha256=<hex>" };
    }
    const mac = hexBytes(signature[1]!);
    let signed = false;
    for (const secret of secrets) {
      if (await hmacVerifies(secret, mac, post.body)) signed = true;
    }
    if (!signed) return { ok: false, status: 401, reason: "the signature is not the hook's" };
    const id = headerId(post.headers, "x-github-delivery");
    if (!id) return { ok: false, status: 400, reason: "no X-GitHub-Delivery" };
    const event = headerId(post.headers, "x-github-event") ?? "unnamed";
    return { ok: true, id, about: `GitHub event "${event}", delivery ${id}` };
  },
};

/** Whether `mac` is the HMAC-SHA256 of `body` under `secret`, compared in constant time. */
export async function hmacVerifies(secret: Secret, mac: Uint8Array, body: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret.reveal()),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return await crypto.subtle.verify(
    "HMAC",
    key,
    mac as Uint8Array<ArrayBuffer>,
    body as Uint8Array<ArrayBuffer>,
  );
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
