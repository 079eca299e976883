import { LinkError } from "../../base/mod.ts";

/**
 * The URL that fetches `url` through the agent's proxy in its base-URL form (SBX-19):
 * `https://host/path?q` becomes `<proxy>/https/host/path?q`. Without a proxy, the URL itself.
 */
export function toProxyUrl(url: URL, proxy: string | undefined): string {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LinkError(
      "REFUSED",
      `Cannot fetch "${url.href}": only http and https addresses can be fetched`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new LinkError(
      "REFUSED",
      `Cannot fetch "${url.origin}": the address holds a user name or password`,
      {
        hint: "Fetch the address without them",
      },
    );
  }
  if (proxy === undefined) return `${url.origin}${url.pathname}${url.search}`;
  const base = proxy.endsWith("/") ? proxy : `${proxy}/`;
  return `${base}${url.protocol.slice(0, -1)}/${url.host}${url.pathname}${url.search}`;
}
