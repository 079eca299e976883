/**
 * The sandbox's attack suites again, as an ordinary user: the tests run as root here and in CI,
 * where a sandbox takes the root path (an unprivileged uid of its own, no user namespace); a
 * person runs Link as themselves, where bubblewrap makes a user namespace. Both must hold. As root
 * this runs the suites as another uid (setpriv) from a copy of the checkout and of Deno's cache
 * that uid may read, and passes only when every test of theirs passed.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { otherUsersUnavailable } from "../support/other_user.ts";
import { NO_BWRAP } from "../support/sandbox.ts";

/** An ordinary uid, outside Link's range and no system user. */
const USER = 4242;
const SUITES = [
  "attacks_test.ts",
  "attacks_process_test.ts",
  "attacks_network_test.ts",
  "attacks_identity_test.ts",
  "sandbox_grants_test.ts",
  "planted_links_test.ts",
  "protected_places_test.ts",
  "attacks_connections_test.ts",
  "attacks_tools_test.ts",
  "teams_test.ts",
  "attacks_webhooks_test.ts",
  "attacks_skills_test.ts",
  "attacks_memory_test.ts",
  "attacks_hub_test.ts",
  "attacks_refer_test.ts",
];
const CHECKOUT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const WHY_NOT = NO_BWRAP ?? await otherUsersUnavailable();
if (WHY_NOT) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`sandbox suites as an ordinary user ignored: ${WHY_NOT}`);
}

Deno.test({
  name: "the sandbox's attack suites hold when Link runs as an ordinary user (SBX-1, SBX-21, GRT-8)",
  ignore: WHY_NOT !== undefined,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "lnk-as-user-" });
    try {
      await Deno.chmod(root, 0o755);
      const checkout = join(root, "checkout");
      const denoDir = join(root, "deno");
      const home = join(root, "home");
      await copy(CHECKOUT, checkout, [".git"]);
      await copy(denoCache(), denoDir, []);
      await Deno.mkdir(home);
      await own([checkout, denoDir, home]);
      const out = await new Deno.Command("setpriv", {
        args: [
          `--reuid=${USER}`,
          `--regid=${USER}`,
          "--clear-groups",
          "--",
          Deno.execPath(),
          "test",
          "-A",
          "--no-check",
          "--cached-only",
          ...SUITES.map((suite) => join("tests", "sandbox", suite)),
        ],
        cwd: checkout,
        clearEnv: true,
        env: { HOME: home, DENO_DIR: denoDir, NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
        stdin: "null",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      const counts = /(ok|FAILED) \| (\d+) passed.*?\| (\d+) failed/.exec(text);
      assert.ok(counts, text.slice(-4000));
      assert.deepEqual(
        { failed: Number(counts[3]), ran: Number(counts[2]) > 0 },
        { failed: 0, ran: true },
        text,
      );
      assert.ok(out.success, text.slice(-4000));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

function denoCache(): string {
  const named = Deno.env.get("DENO_DIR");
  if (named) return named;
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

async function copy(from: string, to: string, skip: readonly string[]): Promise<void> {
  const args = ["-a", "--no-preserve=ownership", `${from}/.`, to];
  await Deno.mkdir(to, { recursive: true });
  const out = await new Deno.Command("cp", { args, stdout: "null", stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  for (const name of skip) await Deno.remove(join(to, name), { recursive: true }).catch(() => {});
}

async function own(paths: readonly string[]): Promise<void> {
  const out = await new Deno.Command("chown", { args: ["-R", `${USER}:${USER}`, ...paths] }).output();
  assert.ok(out.success);
}
