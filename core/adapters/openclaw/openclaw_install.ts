import { join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import type { Env } from "../ask_adapter.ts";
import { npmInstall } from "../npm.ts";

/** The OpenClaw release this adapter installs and configures, and the Node it runs on (npm's). */
export const OPENCLAW_RELEASE = "2026.9.x";
export const NODE_RELEASE = "24";

/**
 * The variables OpenClaw runs with in Link's sandbox, besides HOME and PATH: no update checks, and
 * its file-safety library without its native addon, whose `openat2` the sandbox's seccomp filter
 * refuses (ENOSYS: its flags, setuid bits among them, are in memory the filter cannot read), where
 * the addon does not fall back and OpenClaw's state locks fail; the library's own fallbacks hold.
 */
export const OPENCLAW_ENV: Readonly<Record<string, string>> = {
  OPENCLAW_NO_AUTO_UPDATE: "1",
  OPENCLAW_FS_SAFE_NATIVE_MODE: "off",
};

/** The install folder's programs: `openclaw` and the Node 24 beside it, in node_modules/.bin. */
export function installBin(install: string): string {
  return join(install, "node_modules", ".bin");
}

/** The PATH OpenClaw runs with: its install's programs first, then the system's. */
export function installPath(install: string): string {
  return [installBin(install), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

/** The OpenClaw release installed in the folder, or undefined when none is (or its Node is missing). */
export async function installedVersion(install: string): Promise<string | undefined> {
  try {
    await Deno.stat(join(installBin(install), "node"));
    const text = await Deno.readTextFile(join(install, "node_modules", "openclaw", "package.json"));
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" && matchesRelease(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a version is of the release this adapter runs (2026.9.x). */
export function matchesRelease(version: string): boolean {
  return version.startsWith(OPENCLAW_RELEASE.replace(/x$/, "")) && !version.includes("-");
}

/**
 * Installs OpenClaw 2026.9.x and Node 24 from npm into the install folder (the setup's `install`
 * step, SBX-13): Node first, as OpenClaw's own install script refuses an older one, then OpenClaw
 * with that Node first on the PATH. Nothing is done when the release is there already.
 */
export async function installOpenClaw(
  install: string,
  env: Env,
): Promise<{ version: string; changed: boolean }> {
  const before = await installedVersion(install);
  if (before) return { version: before, changed: false };
  await Deno.mkdir(install, { recursive: true });
  const npm = (packages: string[]) =>
    npmInstall(install, packages, env, {
      bin: installBin(install),
      title: "OpenClaw",
      hint: "Check that your npm reaches its registry (`npm ping`), then start the agent again",
    });
  const node = `node@${NODE_RELEASE}`;
  await npm([node]);
  await npm([node, `openclaw@${OPENCLAW_RELEASE}`]);
  const version = await installedVersion(install);
  if (!version) {
    throw new LinkError("SERVICE_FAILED", `npm installed no OpenClaw ${OPENCLAW_RELEASE} in ${install}`, {
      hint: "Remove the folder and start the agent again",
    });
  }
  return { version, changed: true };
}
