import { closeQuietly, logger, type Secret, writeAll } from "../core/base/mod.ts";
import { type ConnReader, encodeHead, type Header, type RequestHead } from "../http1/mod.ts";
import { type ByteConn, sendPromptly } from "./byte_conn.ts";
import { checkTarget, type Resolve } from "./check_target.ts";
import { tunnel } from "./connect_tunnel.ts";
import { type ForwardContext, forwardRequest } from "./forward_request.ts";
import { checkOwnHost, checkPathSecret, checkProxyAuthorization } from "./proxy_auth.ts";
import {
  parseAbsoluteTarget,
  parseBaseUrlTarget,
  parseConnectTarget,
  type ProxyTarget,
} from "./proxy_target.ts";
import { type Refusal, refusalBody, refusalStatus, upstreamFailed } from "./refusal.ts";
import type { TargetRules } from "./target_rules.ts";

const log = logger("proxy");

/** Everything a request is judged and carried with. */
export interface RequestContext extends ForwardContext {
  readonly secret: Secret;
  readonly rules: TargetRules;
  readonly resolve: Resolve;
  /** The port callers name in Host for the base-URL form, when known. */
  readonly hostPort: number | undefined;
}

type Form = "base-url" | "absolute" | "connect";

/**
 * Answers one request on a caller's connection: the base-URL form (SBX-19), an absolute URI or
 * CONNECT (the forward-proxy form), each with the secret, then the target's checks. Returns
 * whether the connection may carry another request.
 */
export async function handleRequest(
  client: ConnReader<ByteConn>,
  request: RequestHead,
  context: RequestContext,
): Promise<boolean> {
  request = ownBaseUrl(request, context.hostPort);
  const form: Form = request.method === "CONNECT"
    ? "connect"
    : /^https?:\/\//i.test(request.target)
    ? "absolute"
    : "base-url";
  const accepted = admit(request, form, context);
  if ("reason" in accepted) return await refuse(client.conn, accepted, form, request.method);
  const { target } = accepted;
  const decision = await checkTarget(context.rules, target.host, target.port, context.resolve);
  if (!decision.ok) return await refuse(client.conn, decision.refusal, form, request.method, target);
  const { route } = decision;
  const fields = { form, method: request.method, host: route.host, port: route.port, address: route.address };
  if (form === "connect") {
    let upstream: ByteConn;
    try {
      upstream = await context.dial(route.address, route.port);
    } catch (err) {
      return await refuse(client.conn, upstreamFailed(route, err), form, request.method, target);
    }
    const forget = context.track(upstream);
    sendPromptly(upstream);
    log.info("Tunnel opened", fields);
    try {
      await tunnel(client, upstream);
    } finally {
      forget();
      closeQuietly(upstream);
    }
    return false;
  }
  const result = await forwardRequest(client, request, target, route, context);
  if ("reason" in result) return await refuse(client.conn, result, form, request.method, target);
  log.info("Request forwarded", fields);
  return result.keepAlive;
}

/**
 * A client that sends every request through HTTP_PROXY (Deno's fetch, curl) sends one for the
 * proxy's own base-URL address in absolute form, to the proxy itself: read it as the base-URL
 * form it is, which the secret in its path still guards, rather than as a forward to loopback.
 */
function ownBaseUrl(request: RequestHead, hostPort: number | undefined): RequestHead {
  if (hostPort === undefined) return request;
  const own = new RegExp(`^http://(?:127\\.0\\.0\\.1|localhost|\\[::1\\]):${hostPort}(/_link/s/.*)$`, "i");
  const path = own.exec(request.target)?.[1];
  return path === undefined ? request : { ...request, target: path };
}

function admit(request: RequestHead, form: Form, context: RequestContext): Refusal | { target: ProxyTarget } {
  let target: ProxyTarget | undefined;
  if (form === "base-url") {
    const wrongHost = checkOwnHost(request.headers, context.hostPort);
    if (wrongHost) return wrongHost;
    const secret = checkPathSecret(request.target, context.secret);
    if ("reason" in secret) return secret;
    target = parseBaseUrlTarget(secret.rest);
  } else {
    const denied = checkProxyAuthorization(request.headers, context.secret);
    if (denied) return denied;
    target = form === "connect" ? parseConnectTarget(request.target) : parseAbsoluteTarget(request.target);
  }
  if (target) return { target };
  return {
    reason: "bad-request",
    message: "Cannot forward the request: its target is not a scheme, host and path the proxy can read",
    hint: form === "base-url"
      ? "Write the target after the secret as /<http|https>/<host>[:<port>]/<path>"
      : "Send an absolute http:// URI, or CONNECT host:port",
  };
}

/** Answers a refusal and closes: a body the caller may still send is never read. */
async function refuse(
  conn: ByteConn,
  refusal: Refusal,
  form: Form,
  method: string,
  target?: ProxyTarget,
): Promise<false> {
  // The target's host and port only: a path may hold a token, and the base-URL path holds the secret.
  log.warn("Request refused", {
    reason: refusal.reason,
    form,
    method,
    host: target?.host,
    port: target?.port,
  });
  await writeRefusal(conn, refusal, form !== "base-url");
  return false;
}

/** Writes a refusal's response: its status, `Link-Refused: <reason>`, and a plain-text body. */
export async function writeRefusal(conn: ByteConn, refusal: Refusal, asProxy: boolean): Promise<void> {
  const status = refusalStatus(refusal.reason, asProxy);
  const body = new TextEncoder().encode(refusalBody(refusal));
  const headers: Header[] = [
    ["Content-Type", "text/plain; charset=utf-8"],
    ["Content-Length", String(body.length)],
    ["Link-Refused", refusal.reason],
    ["Connection", "close"],
    ...(status === 407 ? [["Proxy-Authenticate", 'Basic realm="link"'] as const] : []),
  ];
  const head = encodeHead(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Refused"}`, headers);
  const all = new Uint8Array(head.length + body.length);
  all.set(head);
  all.set(body, head.length);
  await writeAll(conn, all);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  502: "Bad Gateway",
  503: "Service Unavailable",
};
