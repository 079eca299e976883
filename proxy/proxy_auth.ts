import type { Secret } from "../core/base/mod.ts";
import { type Header, headerValue } from "../http1/mod.ts";
import type { Refusal } from "./refusal.ts";
import { splitAuthority } from "./proxy_target.ts";

/** The path prefix of the base-URL form, before the secret (SBX-19). */
export const SECRET_PREFIX = "/_link/s/";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Checks the base-URL form's secret, `/_link/s/<secret>/...`, and returns what follows it.
 * The refusal never repeats what the caller sent.
 */
export function checkPathSecret(target: string, secret: Secret): { rest: string } | Refusal {
  if (!target.startsWith(SECRET_PREFIX)) {
    return {
      reason: "secret-missing",
      message: "Cannot forward the request: its path does not start with the proxy's secret",
      hint:
        "Reach the proxy at the base URL Link gave the program: http://127.0.0.1:<port>/_link/s/<secret>/",
    };
  }
  const end = target.indexOf("/", SECRET_PREFIX.length);
  const given = target.slice(SECRET_PREFIX.length, end < 0 ? undefined : end);
  if (!secret.matches(given)) return wrongSecret();
  return { rest: end < 0 ? "" : target.slice(end) };
}

/**
 * Checks `Proxy-Authorization: Basic` for the forward-proxy form: any user name, the secret as
 * the password (HTTP_PROXY=http://link:<secret>@127.0.0.1:<port>).
 */
export function checkProxyAuthorization(headers: readonly Header[], secret: Secret): Refusal | undefined {
  const value = headerValue(headers, "proxy-authorization");
  if (value === undefined) {
    return {
      reason: "secret-missing",
      message: "Cannot forward the request: it carries no Proxy-Authorization",
      hint: "Use the proxy variables Link set (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY), which hold the secret",
    };
  }
  const match = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value.trim());
  let password: string | undefined;
  try {
    const decoded = match ? atob(match[1]!) : "";
    password = decoded.includes(":") ? decoded.slice(decoded.indexOf(":") + 1) : undefined;
  } catch {
    password = undefined;
  }
  return password !== undefined && secret.matches(password) ? undefined : wrongSecret();
}

/**
 * Checks that the Host header names the proxy itself, so a web page whose name was rebound to
 * 127.0.0.1 cannot use it: a loopback name, and the proxy's port when it is known.
 */
export function checkOwnHost(headers: readonly Header[], port: number | undefined): Refusal | undefined {
  const authority = splitAuthority(headerValue(headers, "host")?.toLowerCase() ?? "");
  const ok = authority !== undefined && LOOPBACK_HOSTS.has(authority.host) &&
    (port === undefined || authority.port === port);
  if (ok) return undefined;
  return {
    reason: "wrong-host",
    message: "Cannot forward the request: its Host header does not name the proxy's own address",
    hint: "Send the request to http://127.0.0.1:<port>/_link/s/<secret>/..., with that Host",
  };
}

function wrongSecret(): Refusal {
  return {
    reason: "secret-wrong",
    message: "Cannot forward the request: the proxy's secret does not match, or is from an earlier start",
    hint: "Use the proxy address from the program's current environment; a restart makes a new secret",
  };
}
