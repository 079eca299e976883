/** What the fake daemon's HTTP checks before anything else, as signal-cli's own server does. */

/** Whether the Host header names the loopback at the daemon's port (a DNS-rebinding page's does not). */
export function hostAllowed(req: Request, port: number): boolean {
  const host = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(req.headers.get("host") ?? "");
  if (!host) return false;
  const name = (host[1] ?? host[2] ?? "").toLowerCase();
  if (!["127.0.0.1", "localhost", "::1"].includes(name)) return false;
  return host[3] === undefined || Number(host[3]) === port;
}

/** An answer of `status` with no body, the request's own body let go. */
export async function empty(req: Request, status: number): Promise<Response> {
  await req.body?.cancel();
  return new Response(null, { status });
}
