import assert from "node:assert/strict";
import { join } from "node:path";
import { CHECKOUT_DIR, LOCK_PATH, roleEnv, sha256Hex, sourceArgv } from "../../core/base/mod.ts";
import { shimText } from "../../tools/install.ts";
import { runCli, tempHome } from "../support/mod.ts";

async function run(command: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(command, { args, cwd: CHECKOUT_DIR, env, stdin: "null" }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("deno task install-lnk writes an lnk that runs the roles' own command line with Deno's cache pinned, and it runs", async () => {
  const root = await Deno.makeTempDir({ prefix: "lnk-install-" });
  try {
    const installed = await run(Deno.execPath(), ["task", "install-lnk", "--root", root, "--json"], {
      NO_COLOR: "1",
    });
    assert.equal(installed.code, 0, installed.stderr);
    const shim = join(root, "bin", "lnk");
    assert.deepEqual(JSON.parse(installed.stdout), {
      installed: shim,
      checkout: CHECKOUT_DIR,
      deno_dir: roleEnv().DENO_DIR,
    });
    assert.match(installed.stderr, /is not on your PATH; add it, or run /);
    assert.equal((await Deno.stat(shim)).mode! & 0o777, 0o755);
    assert.equal(await Deno.readTextFile(shim), shimText(sourceArgv(), roleEnv().DENO_DIR!));
    // Run with another HOME and no DENO_DIR: the shim brings its own, so it finds every package.
    const home = await Deno.makeTempDir({ prefix: "lnk-install-home-" });
    try {
      const ran = await run(shim, ["--version", "--json"], { HOME: home, DENO_DIR: "" });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(JSON.parse(ran.stdout).lock, sha256Hex(await Deno.readTextFile(LOCK_PATH)));
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("The shim quotes what it pins, and pins the npm registry Deno's cache was filled from when one is set", () => {
  const text = shimText(["/opt/deno", "run", "/it's/main.ts"], "/c/deno", "http://10.0.0.7:4873/");
  assert.match(text, /^#!\/bin\/sh\n/);
  assert.match(
    text,
    /\nDENO_DIR='\/c\/deno'\nexport DENO_DIR\nNPM_CONFIG_REGISTRY='http:\/\/10\.0\.0\.7:4873\/'\n/,
  );
  assert.match(text, /\nexec '\/opt\/deno' 'run' '\/it'\\''s\/main\.ts' "\$@"\n$/);
  assert.doesNotMatch(shimText(["/opt/deno"], "/c/deno"), /NPM_CONFIG_REGISTRY/);
});

Deno.test("deno task install-lnk refuses a wrong flag and a name with a slash, saying how it is run", async () => {
  const wrong = await run(Deno.execPath(), ["task", "install-lnk", "--rot", "/tmp/x"], { NO_COLOR: "1" });
  assert.equal(wrong.code, 2);
  assert.match(
    wrong.stderr,
    /error: .*--rot.*\n {2}hint: deno task install-lnk \[--root <dir>\] \[--name lnk\] \[--json\]/,
  );
  const named = await run(Deno.execPath(), ["task", "install-lnk", "--name", "../lnk"], { NO_COLOR: "1" });
  assert.equal(named.code, 2);
  assert.match(named.stderr, /error: Cannot install as "\.\.\/lnk": a name is letters, digits/);
});

Deno.test("lnk --version names Link's version, Deno's, and the sha256 of the deno.lock it runs with", async () => {
  await using home = await tempHome();
  const config = JSON.parse(await Deno.readTextFile(join(CHECKOUT_DIR, "deno.json")));
  const lock = sha256Hex(await Deno.readTextFile(LOCK_PATH));
  const json = await runCli(["--version", "--json"], home);
  assert.deepEqual(JSON.parse(json.stdout), {
    link: config.version,
    deno: Deno.version.deno,
    lock,
    checkout: CHECKOUT_DIR,
  });
  const text = await runCli(["--version"], home);
  assert.equal(
    text.stdout,
    `lnk ${config.version} (from ${CHECKOUT_DIR})\ndeno ${Deno.version.deno}\ndeno.lock sha256 ${lock}\n`,
  );
});
