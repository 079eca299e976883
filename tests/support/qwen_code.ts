/**
 * Qwen Code (`@qwen-code/qwen-code` from npm, on the Node 24 npm supplies), as the CI's setup
 * installs it (.ci/run): tests install nothing, and where it is missing the tests that need it are
 * ignored with the reason printed. Its folder is $LNK_QWEN_DIR, else lnk-tests/qwen in the user's
 * cache folder.
 */
import { join } from "node:path";

/** The folder the setup installs Qwen Code and its Node into. */
export const QWEN_DIR: string = Deno.env.get("LNK_QWEN_DIR") ??
  join(
    Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/nonexistent", ".cache"),
    "lnk-tests",
    "qwen",
  );

/** The `qwen` program, with its own Node beside it in node_modules/.bin. */
export const QWEN_BIN: string = join(QWEN_DIR, "node_modules", ".bin", "qwen");

/** Why Qwen Code cannot run here, or undefined when it can. */
export const NO_QWEN: string | undefined = await qwenProblem();
if (NO_QWEN) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`Qwen Code tests ignored: ${NO_QWEN}`);
}

async function qwenProblem(): Promise<string | undefined> {
  try {
    await Deno.stat(QWEN_BIN);
  } catch {
    return `Qwen Code is not installed in ${QWEN_DIR} (.ci/run installs it from npm; set LNK_QWEN_DIR to another)`;
  }
  try {
    const out = await new Deno.Command(QWEN_BIN, {
      args: ["--version"],
      env: { PATH: `${join(QWEN_DIR, "node_modules", ".bin")}:/usr/bin:/bin` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      return `${QWEN_BIN} --version failed: ${new TextDecoder().decode(out.stderr).split("\n")[0]}`;
    }
  } catch (err) {
    return `${QWEN_BIN} does not run: ${err}`;
  }
  return undefined;
}
