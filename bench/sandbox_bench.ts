/**
 * What a sandbox adds to starting a program: the median start of a sandboxed /bin/true (a plan
 * as an agent gets it: its folders, Link's runtime, every namespace) over a bare /bin/true,
 * N runs each, interleaved in one run. Prints the figure last, with the ratio.
 * Run: `deno run -A bench/sandbox_bench.ts [runs]` (or `deno task bench sandbox`).
 * @module
 */
import { LinkPaths } from "../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, resolveSandboxInput, runSandboxed } from "../sandbox/mod.ts";
import { RUN_IDENTITY } from "../core/spec/mod.ts";
import { runsAsRoot } from "../core/spec/mod.ts";

/** The medians measured, in milliseconds. */
export interface SandboxBench {
  readonly runs: number;
  readonly bareMs: number;
  readonly sandboxedMs: number;
}

/** Measures a bare and a sandboxed /bin/true, `runs` times each, alternating. */
export async function benchSandboxStart(runs = 30): Promise<SandboxBench> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-bench-" }));
  try {
    const plan = planSandbox(
      await resolveSandboxInput({
        spec: parseSandboxSpec("", "sandbox.toml"),
        paths: new LinkPaths(home),
        harnessHome: `${home}/harness`,
        netDir: `${home}/net`,
        command: ["/bin/true"],
        // As root, a sandbox runs as a uid of its own, through idmapped mounts (SBX-1).
        identity: runsAsRoot() ? RUN_IDENTITY : undefined,
      }),
    );
    const bare: number[] = [];
    const sandboxed: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const t0 = performance.now();
      await new Deno.Command("/bin/true", { stdin: "null", stdout: "null", stderr: "null" }).output();
      const t1 = performance.now();
      await using sandbox = await runSandboxed(plan, { stdin: "null", stdout: "null", stderr: "null" });
      const status = await sandbox.status;
      const t2 = performance.now();
      if (!status.success) throw new Error(`the sandboxed /bin/true exited with ${status.code}`);
      if (i === 0) continue; // the first of each warms the caches
      bare.push(t1 - t0);
      sandboxed.push(t2 - t1);
    }
    return { runs, bareMs: median(bare), sandboxedMs: median(sandboxed) };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The bench's closing line: the added start time and the ratio to the baseline. */
export function sandboxBenchLine(b: SandboxBench): string {
  const added = b.sandboxedMs - b.bareMs;
  return `sandbox start: bare /bin/true ${b.bareMs.toFixed(2)} ms, sandboxed ${
    b.sandboxedMs.toFixed(2)
  } ms ` +
    `(median of ${b.runs}): +${added.toFixed(2)} ms, ${(b.sandboxedMs / b.bareMs).toFixed(1)}x`;
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 30);
  Deno.stdout.writeSync(new TextEncoder().encode(`${sandboxBenchLine(await benchSandboxStart(runs))}\n`));
}
