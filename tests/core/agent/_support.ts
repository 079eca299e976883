/**
 * What the agent tests share: every path under a folder, and what of them another user (a real
 * uid, through setpriv) manages to read.
 */
import { join } from "node:path";

/** Every file and folder under `dir` (not `dir` itself), found as this process sees them. */
export async function pathsUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    found.push(path);
    if (entry.isDirectory) found.push(...await pathsUnder(path));
  }
  return found.sort();
}

/**
 * What user `uid` reads of `paths`, trying each as that user would: a folder listed, anything
 * else read whole. "read <path>" or "listed <path>" for each it managed; none is the answer hoped for.
 */
export async function readByOtherUser(uid: number, paths: readonly string[]): Promise<string[]> {
  const script = 'while IFS= read -r p; do if [ -d "$p" ]; then ls -A "$p" >/dev/null 2>&1 && ' +
    'echo "listed $p"; else cat "$p" >/dev/null 2>&1 && echo "read $p"; fi; done; exit 0';
  const child = new Deno.Command("setpriv", {
    args: [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", "sh", "-c", script],
    env: { PATH: "/usr/bin:/bin", HOME: "/" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(paths.map((p) => `${p}\n`).join("")));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`setpriv failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

/** The paths among `paths` whose mode lets anyone but their owner in (any group or other bit). */
export async function openModes(paths: readonly string[]): Promise<string[]> {
  const open: string[] = [];
  for (const path of paths) {
    const mode = (await Deno.lstat(path)).mode ?? 0;
    if (mode & 0o077 && !(await Deno.lstat(path)).isSymlink) {
      open.push(`${(mode & 0o777).toString(8)} ${path}`);
    }
  }
  return open;
}
