import { join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import type { Env } from "../ask_adapter.ts";
import { npmInstall } from "../npm.ts";

/**
 * The DeepSeek Harness release this adapter installs (`@deepseek-ai/dsh` on npm), and the Node it
 * runs on (npm's). Its 0.1.5 line is the first whose `dsh` serves ACP on stdio (`dsh --profile acp`);
 * the 0.1.0 ones have no ACP profile.
 */
export const DSH_PACKAGE = "@deepseek-ai/dsh";
export const DSH_RELEASE = "0.1.5-rc.2";
export const NODE_RELEASE = "24";

/** The install folder's programs: `dsh` and the Node beside it, in node_modules/.bin. */
export function installBin(install: string): string {
  return join(install, "node_modules", ".bin");
}

/** The PATH dsh runs with: its install's programs first, then the system's. */
export function installPath(install: string): string {
  return [installBin(install), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

/** The `dsh` program of an install folder. */
export function dshProgram(install: string): string {
  return join(installBin(install), "dsh");
}

/** The dsh release installed in the folder, or undefined when none of this adapter's line is. */
export async function installedVersion(install: string): Promise<string | undefined> {
  try {
    await Deno.stat(dshProgram(install));
    const text = await Deno.readTextFile(
      join(install, "node_modules", ...DSH_PACKAGE.split("/"), "package.json"),
    );
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" && matchesRelease(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a version is of the line this adapter runs: 0.1.5 and its candidates. */
export function matchesRelease(version: string): boolean {
  return version === DSH_RELEASE.replace(/-.*$/, "") || version.startsWith(DSH_RELEASE.replace(/-.*$/, "-"));
}

/**
 * Installs dsh and Node 24 from npm into the install folder (the setup's `install` step, SBX-13),
 * from the registry the person's npm uses. Nothing is done when the release is there already. An
 * npm that fails is a SERVICE_FAILED with npm's code and its first line of detail.
 */
export async function installDsh(install: string, env: Env): Promise<{ version: string; changed: boolean }> {
  const before = await installedVersion(install);
  if (before) return { version: before, changed: false };
  await Deno.mkdir(install, { recursive: true });
  const packages = [`node@${NODE_RELEASE}`, `${DSH_PACKAGE}@${DSH_RELEASE}`];
  // With all of dsh's peers, as it needs them: `--legacy-peer-deps` is quicker, but leaves out
  // peers its launcher imports, and it does not start (docs/adapters.md).
  await npmInstall(install, packages, env, {
    bin: installBin(install),
    title: "DeepSeek Harness",
    hint: "Check that your npm reaches its registry (`npm ping`) and that the release is there (`npm view " +
      `${DSH_PACKAGE}@${DSH_RELEASE}\`), then try again`,
  });
  const version = await installedVersion(install);
  if (!version) {
    throw new LinkError("SERVICE_FAILED", `npm installed no ${DSH_PACKAGE} ${DSH_RELEASE} in ${install}`, {
      hint: "Remove the folder and start the agent again",
    });
  }
  return { version, changed: true };
}
