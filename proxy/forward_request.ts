import { closeQuietly, writeAll } from "../core/base/mod.ts";
import {
  ConnReader,
  encodeHead,
  expectsContinue,
  hasToken,
  type Header,
  headerValue,
  latin1,
  type MessageBody,
  readResponseHead,
  type RequestHead,
  type ResponseHead,
} from "../http1/mod.ts";
import { type ByteConn, sendPromptly } from "./byte_conn.ts";
import type { Route } from "./check_target.ts";
import { endToEndHeaders } from "./end_to_end_headers.ts";
import { injectKeys, type ProxyKey } from "./proxy_key.ts";
import { hostHeader, type ProxyTarget } from "./proxy_target.ts";
import { type Refusal, upstreamFailed } from "./refusal.ts";
import { framingHeader, needsChunking, relayBody, requestBody, responseBody } from "./relay_body.ts";
import type { Dial, StartTls } from "./upstream.ts";

/** What forwarding needs besides the request: how to reach upstream, the keys, and a registry of open connections. */
export interface ForwardContext {
  readonly dial: Dial;
  readonly startTls: StartTls;
  readonly keys: readonly ProxyKey[];
  /** Keeps a connection closable while it is open; the returned function forgets it. */
  readonly track: (conn: ByteConn) => () => void;
}

/**
 * Sends one request to its checked route and streams the answer back as it comes. Returns a
 * refusal when upstream fails before the answer starts (the caller answers 502), else whether
 * the caller's connection may carry another request. Throws when it fails mid-answer.
 */
export async function forwardRequest(
  client: ConnReader<ByteConn>,
  request: RequestHead,
  target: ProxyTarget,
  route: Route,
  context: ForwardContext,
): Promise<Refusal | { keepAlive: boolean }> {
  let body: MessageBody;
  try {
    body = requestBody(request);
  } catch (err) {
    return { reason: "bad-request", message: `Cannot forward the request: ${(err as Error).message}` };
  }
  const tls = target.scheme === "https";
  let upstream: ByteConn | undefined;
  let forget = () => {};
  let answer: ConnReader<ByteConn>;
  let response: ResponseHead;
  try {
    try {
      upstream = await context.dial(route.address, route.port);
      forget = context.track(upstream);
      sendPromptly(upstream);
      if (tls) upstream = await context.startTls(upstream, route.host);
      forget();
      forget = context.track(upstream);
      const headers: Header[] = [
        ["Host", hostHeader(route.host, route.port, tls ? "https" : "http")],
        ...injectKeys(endToEndHeaders(request.headers), context.keys, { host: route.host, tls }),
        ...framingHeader(body),
        ["Connection", "close"],
      ];
      await writeAll(upstream, encodeHead(`${request.method} ${target.path} HTTP/1.1`, headers));
      if (body.kind !== "none" && expectsContinue(request.headers)) {
        await writeAll(client.conn, latin1("HTTP/1.1 100 Continue\r\n\r\n"));
      }
      await relayBody(client, body, upstream, body.kind === "chunked");
      answer = new ConnReader(upstream);
      response = await readFinalResponse(answer);
    } catch (err) {
      // Nothing of the answer has been written yet, so the caller still gets a 502 that says why.
      return upstreamFailed(route, err);
    }
    return await relayResponse(answer, response, request, client.conn);
  } finally {
    forget();
    if (upstream) closeQuietly(upstream);
  }
}

async function readFinalResponse(answer: ConnReader<ByteConn>): Promise<ResponseHead> {
  while (true) {
    const head = await readResponseHead(answer);
    if (head === null) throw new Error("it closed the connection without answering");
    if (head.status === 101) throw new Error("it switched protocols, which the proxy does not carry");
    if (head.status >= 200) return head;
  }
}

async function relayResponse(
  answer: ConnReader<ByteConn>,
  response: ResponseHead,
  request: RequestHead,
  client: ByteConn,
): Promise<{ keepAlive: boolean }> {
  const framing = responseBody(response, request.method);
  if (framing.kind === "tunnel") throw new Error("it switched protocols, which the proxy does not carry");
  const http11 = request.version === "HTTP/1.1";
  const chunked = http11 && needsChunking(framing);
  const keepAlive = http11 && !hasToken(request.headers, "connection", "close") &&
    !(framing.kind === "close" && !chunked);
  const length = headerValue(response.headers, "content-length");
  const headers: Header[] = [
    ...endToEndHeaders(response.headers),
    ...(framing.kind === "none" && length !== undefined ? [["Content-Length", length] as const] : []),
    ...(chunked ? [["Transfer-Encoding", "chunked"] as const] : framingHeader(framing)),
    ["Connection", keepAlive ? "keep-alive" : "close"],
  ];
  await writeAll(client, encodeHead(`HTTP/1.1 ${response.status} ${response.reason}`, headers));
  await relayBody(answer, framing, client, chunked);
  return { keepAlive };
}
