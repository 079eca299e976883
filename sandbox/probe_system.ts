import { join } from "node:path";
import { LinkError } from "../core/base/mod.ts";
import { runsAsRoot } from "../core/spec/mod.ts";
import { SYSTEM_SECRETS, type SystemView, TOP_FOLDERS, type TopEntry } from "./system_view.ts";

/** The first bubblewrap that can keep user namespaces out of a sandbox (`--disable-userns`). */
export const MIN_BWRAP = [0, 8, 0] as const;

let cached: Promise<SystemView> | undefined;

/**
 * Looks at this machine once: where bubblewrap is and whether it is new enough, how /bin and
 * /lib are laid out, which secret system paths exist. SANDBOX_UNAVAILABLE when bubblewrap is
 * missing or too old: never a fallback to no sandbox (SBX-3).
 */
export function probeSystem(options: { path?: string } = {}): Promise<SystemView> {
  if (options.path !== undefined) return probe(options.path);
  cached ??= probe(Deno.env.get("PATH") ?? "/usr/bin:/bin");
  cached.catch(() => (cached = undefined));
  return cached;
}

async function probe(searchPath: string): Promise<SystemView> {
  const bwrap = await findProgram("bwrap", searchPath);
  if (!bwrap) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start a sandbox: bubblewrap (bwrap) is not installed",
      {
        hint: "Install it (`sudo apt-get install bubblewrap`), then start again",
      },
    );
  }
  const version = await bwrapVersion(bwrap);
  if (compare(version, MIN_BWRAP) < 0) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      `Cannot start a sandbox: bubblewrap ${
        version.join(".")
      } cannot keep user namespaces out (--disable-userns)`,
      { hint: `Install bubblewrap ${MIN_BWRAP.join(".")} or newer, then start again` },
    );
  }
  const top: TopEntry[] = [];
  for (const path of TOP_FOLDERS) {
    const info = await lstat(path);
    if (info?.isSymlink) top.push({ path, kind: "symlink", target: await Deno.readLink(path) });
    else if (info?.isDirectory) top.push({ path, kind: "folder" });
  }
  const secrets: { path: string; folder: boolean }[] = [];
  for (const path of SYSTEM_SECRETS) {
    const info = await lstat(path);
    if (info && !info.isSymlink) secrets.push({ path, folder: info.isDirectory });
  }
  if (!runsAsRoot()) return { bwrap, top, secrets };
  const setpriv = await findProgram("setpriv", searchPath);
  if (!setpriv) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start a sandbox as root: setpriv (util-linux) is not installed to run its program as its own user",
      { hint: "Install util-linux (`apt-get install util-linux`), then start again" },
    );
  }
  return { bwrap, top, secrets, root: true, setpriv };
}

async function findProgram(name: string, searchPath: string): Promise<string | undefined> {
  for (const dir of [...searchPath.split(":"), "/usr/bin", "/bin"]) {
    if (!dir.startsWith("/")) continue;
    const info = await Deno.stat(join(dir, name)).catch(() => undefined);
    if (info?.isFile && (info.mode ?? 0) & 0o111) return await Deno.realPath(join(dir, name));
  }
  return undefined;
}

async function bwrapVersion(bwrap: string): Promise<number[]> {
  const out = await new Deno.Command(bwrap, { args: ["--version"], clearEnv: true, stdin: "null" }).output();
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(new TextDecoder().decode(out.stdout));
  if (!out.success || !match) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      `Cannot start a sandbox: "${bwrap} --version" did not answer`,
      {
        hint: "Reinstall bubblewrap, then start again",
      },
    );
  }
  return match.slice(1).map(Number);
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}
