/**
 * OpenClaw (`openclaw` 2026.9.x from npm, on the Node 24 npm supplies), as the CI's setup installs
 * it (.ci/run): tests install nothing, and where it is missing the tests that need it are ignored
 * with the reason printed. Its folder is $LNK_OPENCLAW_DIR, else lnk-tests/openclaw in the user's
 * cache folder. A test seeds an agent's install folder from it, so the start's install step finds it there
 * and downloads nothing (seedOpenClawInstall: hard links where it can, a copy else).
 */
import { join } from "node:path";

/** The folder the setup installs OpenClaw and its Node into. */
export const OPENCLAW_DIR: string = Deno.env.get("LNK_OPENCLAW_DIR") ??
  join(
    Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/nonexistent", ".cache"),
    "lnk-tests",
    "openclaw",
  );

/** The `openclaw` program, with its own Node beside it in node_modules/.bin. */
export const OPENCLAW_BIN: string = join(OPENCLAW_DIR, "node_modules", ".bin", "openclaw");

/** Why OpenClaw cannot run here, or undefined when it can. */
export const NO_OPENCLAW: string | undefined = await openclawProblem();
if (NO_OPENCLAW) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`OpenClaw tests ignored: ${NO_OPENCLAW}`);
}

/**
 * Puts the cached install where Link keeps OpenClaw's for a home (`~/.lnk/installs/openclaw`),
 * as the setup's install step would have: hard links of the cache's files, else a copy.
 */
export async function seedOpenClawInstall(home: string): Promise<string> {
  const install = join(home, ".lnk", "installs", "openclaw");
  await Deno.mkdir(join(home, ".lnk", "installs"), { recursive: true });
  for (const how of [["-al"], ["-a"]]) {
    const out = await new Deno.Command("cp", { args: [...how, OPENCLAW_DIR, install], stderr: "piped" })
      .output();
    if (out.success) return install;
    await Deno.remove(install, { recursive: true }).catch(() => {});
  }
  throw new Error(`Cannot seed ${install} from ${OPENCLAW_DIR}`);
}

async function openclawProblem(): Promise<string | undefined> {
  try {
    await Deno.stat(OPENCLAW_BIN);
  } catch {
    return `OpenClaw is not installed in ${OPENCLAW_DIR} (.ci/run installs it from npm; set LNK_OPENCLAW_DIR to another)`;
  }
  try {
    const out = await new Deno.Command(OPENCLAW_BIN, {
      args: ["--version"],
      env: { PATH: `${join(OPENCLAW_DIR, "node_modules", ".bin")}:/usr/bin:/bin` },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      return `${OPENCLAW_BIN} --version failed: ${new TextDecoder().decode(out.stderr).split("\n")[0]}`;
    }
  } catch (err) {
    return `${OPENCLAW_BIN} does not run: ${err}`;
  }
  return undefined;
}
