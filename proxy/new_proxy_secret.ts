import { Secret } from "../core/base/mod.ts";

/** A fresh secret for one start of a proxy (SBX-19): 32 random bytes, base64url, safe in paths and URLs. */
export function newProxySecret(): Secret {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return new Secret(
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  );
}
