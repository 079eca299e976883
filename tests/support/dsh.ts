/**
 * DeepSeek Harness for the tests of harness deepseek. The real `dsh` cannot run here: its only
 * release with an ACP profile (0.1.5-rc.2) names `@deepseek-ai/dsh-acp-app@^0.1.5-rc.2`, which npm
 * does not have (ETARGET), and the 0.1.0 releases have no ACP profile at all. So an install folder
 * is laid out as npm would leave it, its `dsh` the stand-in tests/fakes/dsh_standin.ts run by a
 * hard link of this Deno (a copy where it cannot link): it reads the config configure wrote and
 * asks the model at its base URL with its key, as dsh does.
 */
import { join } from "node:path";
import { DSH_PACKAGE, DSH_RELEASE } from "../../core/adapters/deepseek/mod.ts";

/** Why the real dsh is not run, printed by the tests that use the stand-in. */
export const NO_REAL_DSH =
  `the real dsh is not run: ${DSH_PACKAGE}@${DSH_RELEASE}, its only release serving ACP, cannot be installed from npm (its @deepseek-ai/dsh-acp-app@^0.1.5-rc.2 is not published), so the stand-in tests/fakes/dsh_standin.ts answers \`dsh --profile acp\``;

/**
 * Lays out `<home>/.lnk/installs/deepseek` (where Link keeps DeepSeek Harness's install for a
 * home) with the stand-in, unless `install` names another folder. Answers the folder.
 */
export async function standInDshInstall(home: string, install?: string): Promise<string> {
  const folder = install ?? join(home, ".lnk", "installs", "deepseek");
  const bin = join(folder, "node_modules", ".bin");
  const pkg = join(folder, "node_modules", ...DSH_PACKAGE.split("/"));
  await Deno.mkdir(bin, { recursive: true });
  await Deno.mkdir(pkg, { recursive: true });
  await Deno.writeTextFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: DSH_PACKAGE, version: DSH_RELEASE, bin: { dsh: "standin.sh" } }),
  );
  await Deno.copyFile(new URL("../fakes/dsh_standin.ts", import.meta.url), join(pkg, "dsh_standin.ts"));
  const deno = join(bin, "deno");
  await Deno.link(Deno.execPath(), deno).catch(() => Deno.copyFile(Deno.execPath(), deno));
  await Deno.writeTextFile(
    join(bin, "dsh"),
    `#!/bin/sh\nexec "${deno}" run --allow-all --no-config --no-lock --quiet "${
      join(pkg, "dsh_standin.ts")
    }" "$@"\n`,
    { mode: 0o755 },
  );
  return folder;
}
