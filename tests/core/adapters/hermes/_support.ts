/**
 * What the tests of Hermes's adapter share: an install folder as pip leaves one, its `hermes` the
 * stand-in (tests/fakes/hermes_standin.ts), since the real Hermes cannot be installed here.
 */
import { join } from "node:path";
import { roleEnv } from "../../../../core/base/mod.ts";
import { HERMES_RELEASE } from "../../../../core/adapters/hermes/mod.ts";

const STANDIN = new URL("../../../fakes/hermes_standin.ts", import.meta.url).pathname;
const CONFIG = new URL("../../../../deno.json", import.meta.url).pathname;

/**
 * Lays out `install` as pip leaves a venv holding Hermes (`venv/bin/hermes` and the package's
 * dist-info, what the install check reads), its `hermes` a shell script running the stand-in with
 * this Deno and its cache, which the sandbox shows as it shows Link's own roles.
 */
export async function standInInstall(install: string): Promise<string> {
  const bin = join(install, "venv", "bin");
  await Deno.mkdir(bin, { recursive: true });
  const site = join(install, "venv", "lib", "python3.14", "site-packages");
  await Deno.mkdir(join(site, `hermes_agent-${HERMES_RELEASE}.dist-info`), { recursive: true });
  await Deno.writeTextFile(
    join(site, `hermes_agent-${HERMES_RELEASE}.dist-info`, "METADATA"),
    `Metadata-Version: 2.4\nName: hermes-agent\nVersion: ${HERMES_RELEASE}\n`,
  );
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const denoDir = roleEnv().DENO_DIR;
  await Deno.writeTextFile(
    join(bin, "hermes"),
    [
      "#!/bin/sh",
      "# A stand-in for Hermes: tests/fakes/hermes_standin.ts",
      ...(denoDir ? [`DENO_DIR=${quote(denoDir)}`, "export DENO_DIR"] : []),
      `exec ${quote(Deno.execPath())} run -A --cached-only --config ${quote(CONFIG)} ${quote(STANDIN)} "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return install;
}

/** The variables an adapter is asked with: HOME and PATH alone, unless told more. */
export function envOf(
  home: string,
  more: Record<string, string> = {},
): { get(name: string): string | undefined } {
  const vars: Record<string, string> = { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...more };
  return { get: (name) => vars[name] };
}
