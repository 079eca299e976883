/**
 * The planted-link and protected-place attacks again with Link run by an ordinary user (as a
 * person runs it), not root: _as_user_entry.ts, bundled so that user needs no access to this
 * checkout or Deno's cache, run under setpriv as a uid of its own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { otherUsersUnavailable } from "../bridge/other_user.ts";
import { NO_BWRAP } from "./_support.ts";

const UID = 61999;

const folder = await Deno.makeTempDir({ prefix: "lnk-as-user-" });
const NO_USER: string | undefined = NO_BWRAP ?? await otherUsersUnavailable() ?? await bundle();
if (NO_USER) {
  await Deno.remove(folder, { recursive: true });
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`as-user sandbox attacks ignored: ${NO_USER}`);
}

/**
 * Bundles the entry into the folder, or says why it cannot be. Its folder's parent is what the
 * sandbox mounts as Link's checkout (read-only), so it holds nothing else.
 */
async function bundle(): Promise<string | undefined> {
  const entry = new URL("./_as_user_entry.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--frozen", "-q", "-o", join(folder, "bundle", "lnk", "entry.js"), entry],
    stdout: "null",
    stderr: "piped",
  }).output();
  return out.success ? undefined : `deno bundle failed: ${new TextDecoder().decode(out.stderr).trim()}`;
}

Deno.test({
  name: "attack as an ordinary user: planted links refused, protected places kept, a lifted one writable",
  ignore: NO_USER !== undefined,
  async fn() {
    try {
      const home = join(folder, "home");
      await Deno.mkdir(home);
      await Deno.chmod(folder, 0o755);
      await Deno.chown(home, UID, UID);
      const tmp = join(folder, "tmp");
      await Deno.mkdir(tmp, { mode: 0o777 });
      await Deno.chmod(tmp, 0o1777);
      const out = await new Deno.Command("setpriv", {
        args: [`--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", "--", Deno.execPath()]
          .concat(["run", "-A", "--no-config", "--no-lock", join(folder, "bundle", "lnk", "entry.js")]),
        clearEnv: true,
        env: { HOME: home, TMPDIR: tmp, PATH: "/usr/bin:/bin", DENO_DIR: join(home, "deno"), NO_COLOR: "1" },
        cwd: home,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const refused = (what: string, line: number) =>
        `SYMLINK_REFUSED: Cannot start the sandbox: "…/${what}" is a symbolic link in a place an agent can write, ` +
        `on the way to ${
          line === 3 && what === "docs" ? 'the grant "…/docs"' : `the folder "${what}" of [files]`
        } ` +
        `("…/sandbox.toml" line ${line})`;
      assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
        uid: String(UID),
        plant: "planted\n",
        readInWrite: refused("docs", 3),
        homeFolder: refused("tmpdir", 3),
        repo:
          `${UID}\ndenied .git/config\ndenied .git/hooks/pre-commit\nno-rename\nno-vscode\nno-link\nwrote Makefile\n`,
        lifted: "wrote .git/hooks/pre-commit\ndenied .git/config\n",
        after: ".git Makefile",
      });
    } finally {
      await Deno.remove(folder, { recursive: true });
    }
  },
});
