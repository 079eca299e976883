/** Where a request asks to go, before any check: scheme, host as written, port and path. */
export interface ProxyTarget {
  /** "tcp" for CONNECT: the proxy carries bytes and never reads them. */
  readonly scheme: "http" | "https" | "tcp";
  readonly host: string;
  readonly port: number;
  /** The path and query, exactly as the caller wrote them ("/" at least); "" for CONNECT. */
  readonly path: string;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** Reads what follows the secret in the base-URL form: `/<scheme>/<host>[:<port>]/<path...>` (SBX-19). */
export function parseBaseUrlTarget(rest: string): ProxyTarget | undefined {
  const match = /^\/(https?)\/([^/?#]+)([^#]*)$/.exec(rest);
  if (!match) return undefined;
  return withAuthority(match[1] as "http" | "https", match[2]!, match[3]!);
}

/** Reads an absolute-form request target, `http://host[:port]/path`, as forward proxies get. */
export function parseAbsoluteTarget(target: string): ProxyTarget | undefined {
  const match = /^(https?):\/\/([^/?#@]+)([^#]*)$/i.exec(target);
  if (!match) return undefined;
  return withAuthority(match[1]!.toLowerCase() as "http" | "https", match[2]!, match[3]!);
}

/** Reads a CONNECT target, `host:port` (the port is required). */
export function parseConnectTarget(target: string): ProxyTarget | undefined {
  const authority = splitAuthority(target);
  if (!authority || authority.port === undefined) return undefined;
  return { scheme: "tcp", host: authority.host, port: authority.port, path: "" };
}

function withAuthority(scheme: "http" | "https", authority: string, path: string): ProxyTarget | undefined {
  const split = splitAuthority(authority);
  if (!split) return undefined;
  const fullPath = path === "" ? "/" : path.startsWith("?") ? `/${path}` : path;
  if (!fullPath.startsWith("/")) return undefined;
  return { scheme, host: split.host, port: split.port ?? DEFAULT_PORTS[scheme], path: fullPath };
}

/** Splits "host", "host:port", "[v6]" or "[v6]:port"; undefined for anything else. */
export function splitAuthority(authority: string): { host: string; port?: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:\[\]]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  return { host: match[1]!, port };
}

/** The Host header value for a target: the port only when it is not the scheme's own. */
export function hostHeader(host: string, port: number, scheme: "http" | "https"): string {
  const shown = host.includes(":") ? `[${host}]` : host;
  return port === DEFAULT_PORTS[scheme] ? shown : `${shown}:${port}`;
}
