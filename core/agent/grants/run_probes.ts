import { type Clock, sha256Hex, SYSTEM_CLOCK } from "../../base/mod.ts";
import type { Probe, ProbeAnswer } from "./probe_protocol.ts";
import { limitsProbe, mknodProbe, setidProbe } from "./confinement_probes.ts";
import { selfFacts } from "./self_facts.ts";

/** How probes run inside the sandbox. */
export interface RunProbesOptions {
  /** The environment the sandbox gave (HTTP_PROXY among it). */
  readonly env: Readonly<Record<string, string>>;
  /** How long a connection may take before it counts as failed: 3 s unless told. */
  readonly connectMs?: number;
  /** How long a request through the proxy may take (it may resolve a name): 20 s unless told. */
  readonly requestMs?: number;
  readonly clock?: Clock;
}

/**
 * Runs `lnk agent harness check`'s probes from inside a sandbox, all at once, each answering what
 * it found and never throwing: what it means is judged outside (see Probe).
 */
export async function runProbes(probes: readonly Probe[], options: RunProbesOptions): Promise<ProbeAnswer[]> {
  return await Promise.all(probes.map((probe) => runProbe(probe, options).catch(failed)));
}

function failed(err: unknown): ProbeAnswer {
  return { done: false, detail: err instanceof Error ? err.name : String(err) };
}

async function runProbe(probe: Probe, options: RunProbesOptions): Promise<ProbeAnswer> {
  switch (probe.kind) {
    case "read": {
      const bytes = await Deno.readFile(probe.path);
      return { done: true, detail: "read", sha256: await sha256Hex(bytes) };
    }
    case "write":
      await Deno.writeTextFile(probe.path, probe.token, { createNew: true });
      return { done: true, detail: "written" };
    case "open-write":
      (await Deno.open(probe.path, { write: true })).close();
      return { done: true, detail: "opened for writing" };
    case "connect": {
      const conn = await timed(
        options,
        options.connectMs ?? 3000,
        (signal) => Deno.connect({ hostname: probe.host, port: probe.port, signal }),
      );
      conn.close();
      return { done: true, detail: "connected" };
    }
    case "unix": {
      const conn = await timed(
        options,
        options.connectMs ?? 3000,
        () => Deno.connect({ transport: "unix", path: probe.path }),
      );
      conn.close();
      return { done: true, detail: "connected" };
    }
    case "proxy":
      return await throughProxy(probe.url, options);
    case "interfaces": {
      const list = Deno.networkInterfaces()
        .filter((i) => !isLoopback(i.address))
        .map((i) => `${i.name} ${i.address}`);
      return { done: list.length > 0, detail: list.length ? "present" : "loopback only", list };
    }
    case "env": {
      const hashes: Record<string, string> = {};
      for (const [name, value] of Object.entries(options.env)) hashes[name] = await sha256Hex(value);
      return { done: true, detail: "read", hashes };
    }
    case "limits":
      return await limitsProbe();
    case "setid":
      return await setidProbe(probe.path);
    case "mknod":
      return mknodProbe(probe.char, probe.block);
    case "self":
      return { done: true, detail: "read", facts: await selfFacts() };
  }
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.");
}

/**
 * A GET through the forward proxy HTTP_PROXY names, by hand, so the status and Link's refusal
 * header are read as the proxy sent them.
 */
async function throughProxy(url: string, options: RunProbesOptions): Promise<ProbeAnswer> {
  const named = options.env.HTTP_PROXY ?? options.env.http_proxy;
  if (!named) return { done: false, detail: "no proxy" };
  const proxy = new URL(named);
  const target = new URL(url);
  const auth = btoa(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`);
  const request = `GET ${target.href} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    `Proxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`;
  return await timed(options, options.requestMs ?? 20_000, async (signal) => {
    const conn = await Deno.connect({ hostname: proxy.hostname, port: Number(proxy.port || 80), signal });
    try {
      await conn.write(new TextEncoder().encode(request));
      const head = await readHead(conn);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const refused = /\r\nlink-refused: *([^\r]+)/i.exec(head)?.[1];
      return { done: status > 0, detail: status ? `HTTP ${status}` : "no answer", status, refused };
    } finally {
      conn.close();
    }
  });
}

async function readHead(conn: Deno.Conn): Promise<string> {
  const decoder = new TextDecoder();
  const buf = new Uint8Array(4096);
  let head = "";
  while (!head.includes("\r\n\r\n") && head.length < 65536) {
    const n = await conn.read(buf);
    if (n === null) break;
    head += decoder.decode(buf.subarray(0, n), { stream: true });
  }
  return head;
}

/** Runs `work`, failing with TimedOut after `ms`; the work's signal aborts then. */
async function timed<T>(
  options: RunProbesOptions,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const stop = new AbortController();
  const late = clock.sleep(ms, stop.signal).then(() => {
    const err = new Error(`no answer in ${ms} ms`);
    err.name = "TimedOut";
    throw err;
  });
  try {
    return await Promise.race([work(stop.signal), late]);
  } finally {
    stop.abort();
    late.catch(() => {});
  }
}
