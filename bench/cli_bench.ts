/**
 * The CLI's start (issue 10, item 5): `lnk agent list --json` (one agent in a temporary home) and
 * `lnk --help`, each run as a person runs it from source (a child `deno run` of main.ts, as
 * roleArgv spells it), against a Deno hello started the same way, interleaved in one run so the
 * machine's load weighs on all three alike. Prints the medians, the last line with the ratios to
 * the hello (goal: within 4x).
 *
 * Run: `deno run -A bench/cli_bench.ts [runs]` (or `deno task bench cli`).
 * @module
 */
import { join } from "node:path";
import { roleArgv } from "../core/base/mod.ts";
import { runJson, type TempHome, tempHome } from "../tests/support/mod.ts";
import { line, p50 } from "./_figures.ts";

/** The medians measured, in milliseconds. */
export interface CliBench {
  readonly runs: number;
  readonly helloMs: number;
  readonly listMs: number;
  readonly helpMs: number;
}

/** How long one child takes from spawn to exit; it must exit 0. */
async function timeChild(argv: string[], env: Record<string, string>): Promise<number> {
  const [exe, ...args] = argv;
  const start = performance.now();
  const out = await new Deno.Command(exe!, { args, env, clearEnv: true, stdin: "null", stdout: "piped" })
    .output();
  const ms = performance.now() - start;
  if (!out.success) throw new Error(`${argv.join(" ")} exited ${out.code}`);
  return ms;
}

/** Measures the hello, `lnk agent list --json` and `lnk --help`, `runs` times each, alternating. */
export async function benchCliStart(runs = 20): Promise<CliBench> {
  await using home: TempHome = await tempHome();
  await runJson(["agent", "create", "bench"], home);
  const hello = join(home.path, "hello.ts");
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  const env = home.env.toObject();
  // The hello as Link's own children start: the same runtime, flags and cache, no module of Link's.
  const helloArgv = [Deno.execPath(), "run", "-A", "--cached-only", hello];
  const cases = [helloArgv, roleArgv(["agent", "list", "--json"]), roleArgv(["--help"])];
  const times: number[][] = cases.map(() => []);
  for (let i = 0; i < runs + 1; i++) {
    for (const [c, argv] of cases.entries()) {
      const ms = await timeChild(argv, env);
      if (i > 0) times[c]!.push(ms); // the first of each compiles and caches its modules
    }
  }
  const [helloMs, listMs, helpMs] = times.map(p50) as [number, number, number];
  return { runs, helloMs, listMs, helpMs };
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 20);
  const r = await benchCliStart(runs);
  line(`${Deno.build.os}; from source (deno run main.ts); n=${r.runs} each, interleaved`);
  line(`deno hello (baseline): p50 ${r.helloMs.toFixed(0)} ms`);
  line(`lnk agent list --json (one agent): p50 ${r.listMs.toFixed(0)} ms`);
  line(`lnk --help: p50 ${r.helpMs.toFixed(0)} ms`);
  line(
    `CLI start: lnk agent list --json ${(r.listMs / r.helloMs).toFixed(1)}x hello, ` +
      `lnk --help ${(r.helpMs / r.helloMs).toFixed(1)}x hello (goal: within 4x)`,
  );
}
