import { z } from "zod";
import { Secret } from "../core/base/mod.ts";
import type { Header } from "../http1/mod.ts";

/**
 * A hosted model's key the proxy adds (SBX-16): requests to `host` over TLS have `placeholder`
 * in their `header` replaced by the key, so the key never enters the sandbox.
 */
export interface ProxyKey {
  /** The provider's host name, such as "api.openai.com". */
  readonly host: string;
  /** The header holding the credential, such as "authorization" or "x-api-key". */
  readonly header: string;
  readonly value: Secret;
  /** What the harness holds instead of the key, such as "link-placeholder". */
  readonly placeholder: string;
}

/** A key as the proxy role reads it on stdin. */
export const ProxyKeyInput = z.strictObject({
  host: z.string().min(1),
  header: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/),
  value: z.string().min(1).regex(/^[\x21-\x7e]+$/, "must be printable ASCII"),
  placeholder: z.string().min(8),
}).transform((key): ProxyKey => ({ ...key, host: key.host.toLowerCase(), value: new Secret(key.value) }));
export type ProxyKeyInput = z.input<typeof ProxyKeyInput>;

/**
 * The headers with each known provider's placeholder replaced by its key. Only over TLS: a
 * key is never sent in plain text, and a host the proxy knows no key for gets the headers as
 * they are, placeholder and all.
 */
export function injectKeys(
  headers: readonly Header[],
  keys: readonly ProxyKey[],
  target: { host: string; tls: boolean },
): Header[] {
  const mine = target.tls ? keys.filter((k) => k.host.toLowerCase() === target.host) : [];
  if (mine.length === 0) return [...headers];
  return headers.map(([name, value]) => {
    let next = value;
    for (const key of mine) {
      if (key.header.toLowerCase() === name.toLowerCase()) {
        next = next.replaceAll(key.placeholder, key.value.reveal());
      }
    }
    return [name, next] as const;
  });
}
