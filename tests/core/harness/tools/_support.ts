/** A page the fake proxy serves for `<scheme>/<host><path>`. */
export type FakeRoute = (req: Request) => Response | Promise<Response>;

/**
 * A loopback stand-in for the agent's proxy in its base-URL form: it checks the secret in the
 * path, records what followed it, and answers from routes keyed by `https/host/path`. A route it
 * does not have is refused the way Link's proxy refuses a host ([internet] hosts).
 */
export interface FakeProxy extends AsyncDisposable {
  /** The base URL a sandboxed program gets: `http://127.0.0.1:<port>/_link/s/<secret>/`. */
  readonly url: string;
  /** Every path asked for after the secret, in order. */
  readonly paths: string[];
}

/** Starts the fake on 127.0.0.1, port 0. */
export function serveFakeProxy(secret: string, routes: Record<string, FakeRoute>): FakeProxy {
  const paths: string[] = [];
  const prefix = `/_link/s/${secret}/`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const target = url.pathname + url.search;
    if (!target.startsWith(prefix)) return refuse("secret-wrong", "the proxy's secret does not match");
    const rest = target.slice(prefix.length);
    paths.push(rest);
    const route = routes[rest];
    return route ? route(req) : refuse("host-not-allowed", `"${rest.split("/")[1]}" is not among the hosts`);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}${prefix}`,
    paths,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

function refuse(reason: string, message: string): Response {
  return new Response(`Link's proxy refused the request: Cannot forward the request: ${message}\n`, {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "link-refused": reason },
  });
}
