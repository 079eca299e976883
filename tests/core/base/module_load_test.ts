import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CHECKOUT_DIR,
  LinkError,
  REPAIR_HINT,
  roleArgv,
  sourceArgv,
  spawnRole,
} from "../../../core/base/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("Every role runs the source's one command line: deno.lock's versions alone, from the cache alone", () => {
  assert.deepEqual(sourceArgv(), [
    Deno.execPath(),
    ...["run", "-A", "--frozen", "--cached-only"],
    ...["--config", join(CHECKOUT_DIR, "deno.json"), join(CHECKOUT_DIR, "main.ts")],
  ]);
  assert.deepEqual(roleArgv(["agent", "bridge", "--agent", "a"]), [
    ...sourceArgv(),
    "agent",
    "bridge",
    "--agent",
    "a",
  ]);
});

Deno.test("A compiled lnk starts each role as the binary itself, with no deno run and no checkout", () => {
  assert.deepEqual(roleArgv(["agent", "bridge"], true), [Deno.execPath(), "agent", "bridge"]);
});

Deno.test("A role whose package is not in Deno's cache fails naming the package and the command that repairs it", async () => {
  const cache = await Deno.makeTempDir({ prefix: "lnk-empty-cache-" });
  try {
    const err = await spawnRole(["agent", "list"], { env: { DENO_DIR: cache } })
      .then(() => undefined, (e) => e);
    assert.ok(err instanceof LinkError, String(err));
    assert.equal(err.code, "SERVICE_FAILED");
    assert.match(
      err.message,
      /^Cannot start "agent list": Deno's cache lacks the npm package \S+ that deno\.lock pins$/,
    );
    assert.equal(err.hint, REPAIR_HINT);
    assert.match(
      REPAIR_HINT,
      /^Run `deno task install-lnk` in \/.+: it caches exactly what deno\.lock pins$/,
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("lnk agent start with a Deno cache that lacks a package says which and how to repair it, never only 'exited with code 1'", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const cache = await Deno.makeTempDir({ prefix: "lnk-empty-cache-" });
  try {
    home.env.set("DENO_DIR", cache);
    const started = await runCli(["agent", "start"], home);
    assert.equal(started.code, 1);
    assert.match(
      started.stderr,
      /^error: Cannot start agent "work": Cannot start "lnk-bridge-[a-z0-9]+": Deno's cache lacks the npm package \S+ that deno\.lock pins\n {2}hint: Run `deno task install-lnk` in /,
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
