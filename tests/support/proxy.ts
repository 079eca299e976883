/**
 * What tests that run Link's proxy share. Nothing here sends a packet beyond loopback: the dialler records
 * the checked address and connects to a loopback fake instead (or refuses), and the resolver
 * answers from the test's own table.
 */
import { Secret } from "../../core/base/mod.ts";
import {
  type Dial,
  type ProxyServer,
  type Resolve,
  serveProxy,
  type ServeProxyOptions,
} from "../../proxy/mod.ts";

export const SECRET = new Secret("test-secret-0123456789abcdef");

/** Names the tests use, with public addresses; none is ever dialled. */
export const DNS: Record<string, string[]> = {
  "api.openai.com": ["104.18.7.192"],
  "example.com": ["93.184.216.34"],
  "github.com": ["140.82.121.4"],
  "rebound.example": ["127.0.0.1"],
};

/** A resolver the test controls, and the names it was asked. */
export interface FakeResolver {
  readonly asked: string[];
  readonly resolve: Resolve;
}

/** A resolver the test controls: records every name asked and answers from a table. */
export function fakeResolver(table: Record<string, string[]> = DNS): FakeResolver {
  const asked: string[] = [];
  const resolve = (name: string) => {
    asked.push(name);
    const found = table[name];
    return found ? Promise.resolve(found) : Promise.reject(new Error(`no such name "${name}"`));
  };
  return { asked, resolve };
}

/**
 * A dialler that records each checked address and port, then connects to the loopback fake on
 * `toPort` instead; without `toPort` it refuses, so nothing is ever dialled.
 */
export function recordingDial(toPort?: number): { dialled: [string, number][]; dial: Dial } {
  const dialled: [string, number][] = [];
  const dial: Dial = (address, port) => {
    dialled.push([address, port]);
    if (toPort === undefined) return Promise.reject(new Error("the test dialler dials nothing"));
    return Deno.connect({ hostname: "127.0.0.1", port: toPort });
  };
  return { dialled, dial };
}

/** serveProxy on 127.0.0.1 port 0 with the test secret, no machine networks, and TLS left out. */
export function startProxy(options: Partial<ServeProxyOptions> = {}): Promise<ProxyServer> {
  return serveProxy({
    secret: SECRET,
    localNetworks: [],
    machineNames: [],
    startTls: (conn) => Promise.resolve(conn),
    dial: recordingDial().dial,
    resolve: fakeResolver().resolve,
    ...options,
  });
}

/** A request recorded by the fake upstream. */
export interface UpstreamCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake upstream: its loopback port and what it was sent. */
export interface FakeUpstream extends AsyncDisposable {
  readonly port: number;
  readonly calls: UpstreamCall[];
}

/** A loopback HTTP server standing in for the internet: records each request, answers with `answer`. */
export function fakeUpstream(
  answer: (req: Request, call: UpstreamCall) => Response | Promise<Response> = () => new Response("hello"),
): FakeUpstream {
  const calls: UpstreamCall[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const call = {
      method: req.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
    };
    calls.push(call);
    return answer(req, call);
  });
  return {
    port: server.addr.port,
    calls,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Sends raw bytes on a fresh connection and reads everything until the other side closes. */
export async function rawExchange(
  to: Deno.ConnectOptions | Deno.UnixConnectOptions,
  request: string,
): Promise<string> {
  const conn = await Deno.connect(to as Deno.ConnectOptions);
  try {
    await conn.write(new TextEncoder().encode(request));
    return await new Response(conn.readable).text();
  } finally {
    try {
      conn.close();
    } catch { /* closed by reading to the end */ }
  }
}

/** The status line and the Link-Refused header of a raw response. */
export function statusAndReason(response: string): [string, string | undefined] {
  const status = response.slice(0, response.indexOf("\r\n"));
  return [status, /\r\nLink-Refused: ([^\r]+)/.exec(response)?.[1]];
}

/** `Proxy-Authorization: Basic` for a password. */
export function basicAuth(password: string): string {
  return `Basic ${btoa(`link:${password}`)}`;
}
