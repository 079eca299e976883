/**
 * The proxy's cost: added latency (p50 of small requests through the proxy against the same
 * requests straight to a loopback server) and throughput (MB/s of a large body both ways),
 * each printed last with its ratio to the direct baseline measured in the same run.
 *
 * Run: `deno run -A bench/proxy_bench.ts [small-requests] [large-MiB]` (or `deno task bench proxy`).
 * The target is a `[localhost]` port grant, so the real dialler is used and nothing leaves loopback.
 * @module
 */
import { Secret, setLogSink } from "../core/base/mod.ts";
import { proxyBaseUrl, serveProxy } from "../proxy/mod.ts";
import { line, p50 } from "./_figures.ts";

async function timeSmall(url: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - start);
  }
  return times;
}

async function timeLarge(url: string, rounds: number): Promise<number> {
  let best = Infinity;
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const res = await fetch(url);
    bytes = 0;
    for await (const chunk of res.body!) bytes += chunk.length;
    best = Math.min(best, performance.now() - start);
  }
  return bytes / 1e6 / (best / 1000);
}

/** Measures and prints the figures; returns them for callers that want them. */
export async function main(smallCount = 2000, largeMiB = 64): Promise<Record<string, number>> {
  const large = new Uint8Array(largeMiB * 1024 * 1024).fill(120);
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => new URL(req.url).pathname === "/large" ? new Response(large) : new Response("ok"),
  );
  const port = server.addr.port;
  const secret = new Secret("bench-secret-0123456789abcdef");
  // Request logs go nowhere, so the figures are the proxy's, not the terminal's.
  const restore = setLogSink(() => {});
  try {
    await using proxy = await serveProxy({ secret, policy: { hosts: [], localhostPorts: [port] } });
    const direct = `http://127.0.0.1:${port}`;
    const through = proxyBaseUrl(proxy.port!, secret, direct);
    await timeSmall(`${direct}/small`, 100);
    await timeSmall(`${through}/small`, 100);
    const directP50 = p50(await timeSmall(`${direct}/small`, smallCount));
    const proxyP50 = p50(await timeSmall(`${through}/small`, smallCount));
    line(`small requests, n=${smallCount}: direct p50 ${directP50.toFixed(3)} ms`);
    line(`small requests, n=${smallCount}: through the proxy p50 ${proxyP50.toFixed(3)} ms`);
    line(
      `added latency p50: ${(proxyP50 - directP50).toFixed(3)} ms (${
        (proxyP50 / directP50).toFixed(2)
      }x direct)`,
    );
    const directMBs = await timeLarge(`${direct}/large`, 3);
    const proxyMBs = await timeLarge(`${through}/large`, 3);
    line(`large body, ${largeMiB} MiB, best of 3: direct ${directMBs.toFixed(0)} MB/s`);
    line(
      `throughput through the proxy: ${proxyMBs.toFixed(0)} MB/s (${
        (proxyMBs / directMBs).toFixed(2)
      }x direct)`,
    );
    return { directP50, proxyP50, directMBs, proxyMBs };
  } finally {
    restore();
  }
}

if (import.meta.main) {
  const [small, large] = Deno.args.map(Number);
  await main(small || undefined, large || undefined);
}
