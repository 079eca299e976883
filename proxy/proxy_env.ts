import type { Secret } from "../core/base/mod.ts";
import { SECRET_PREFIX } from "./proxy_auth.ts";

/**
 * The environment a sandboxed program gets to use the proxy: HTTP_PROXY, HTTPS_PROXY and
 * ALL_PROXY in both cases, set to `url` (http://link:<secret>@127.0.0.1:<port>), and NO_PROXY
 * empty, so nothing, not even localhost, goes around it.
 */
export function proxyEnv(url: string): Record<string, string> {
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: "",
    no_proxy: "",
  };
}

/** The forward-proxy URL for proxyEnv: `http://link:<secret>@127.0.0.1:<port>`. */
export function proxyUrl(port: number, secret: Secret): string {
  return `http://link:${encodeURIComponent(secret.reveal())}@127.0.0.1:${port}`;
}

/**
 * A base URL through the proxy (SBX-19): `https://api.openai.com/v1` becomes
 * `http://127.0.0.1:<port>/_link/s/<secret>/https/api.openai.com/v1`.
 */
export function proxyBaseUrl(port: number, secret: Secret, target: string): string {
  const url = new URL(target);
  const scheme = url.protocol.replace(/:$/, "");
  const rest = `${url.host}${url.pathname === "/" && !target.endsWith("/") ? "" : url.pathname}${url.search}`;
  return `http://127.0.0.1:${port}${SECRET_PREFIX}${encodeURIComponent(secret.reveal())}/${scheme}/${rest}`;
}
