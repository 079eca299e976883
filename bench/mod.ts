/**
 * `deno task bench`: runs every benchmark in bench/ one after another (they are timed, so never in
 * parallel), each in its own process. Each prints its figures, the last line its headline with the
 * ratio to a baseline measured in the same run. `deno task bench <name>` runs the ones matching.
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

async function main(filter: string | undefined): Promise<number> {
  const files = (await Array.fromAsync(Deno.readDir(here)))
    .map((e) => e.name)
    .filter((n) => n.endsWith("_bench.ts") && (!filter || n.includes(filter)))
    .sort();
  let failed = 0;
  for (const file of files) {
    const out = new TextEncoder().encode(`\n== ${file}\n`);
    await Deno.stdout.write(out);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--cached-only", join(here, file)],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) failed++;
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args[0]));
