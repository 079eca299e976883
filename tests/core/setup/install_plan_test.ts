import assert from "node:assert/strict";
import { join } from "node:path";
import { planInstall } from "../../../core/setup/mod.ts";
import { testEnv } from "../../support/mod.ts";

/** A PATH of one folder holding (empty, runnable) programs of these names, and nothing else. */
async function pathWith(names: string[]): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-path-" });
  for (const name of names) await Deno.writeTextFile(join(dir, name), "#!/bin/sh\n", { mode: 0o755 });
  return { path: dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("planInstall() installs bubblewrap and util-linux with whichever package manager is there", async () => {
  const cases: [string, string][] = [
    ["apt-get", "apt-get update && apt-get install -y bubblewrap util-linux"],
    ["dnf", "dnf install -y bubblewrap util-linux"],
    ["pacman", "pacman -S --needed --noconfirm bubblewrap util-linux"],
    ["zypper", "zypper --non-interactive install bubblewrap util-linux"],
    ["apk", "apk add bubblewrap util-linux"],
  ];
  for (const [manager, shell] of cases) {
    await using dir = await pathWith([manager]);
    const plan = await planInstall({ env: testEnv({ PATH: dir.path }), uid: 0 });
    assert.deepEqual(
      {
        manager: plan.manager,
        packages: plan.packages,
        shell: plan.shell,
        missing: plan.missing.map((t) => t.program),
      },
      { manager, packages: ["bubblewrap", "util-linux"], shell, missing: ["bwrap", "setsid", "setpriv"] },
    );
  }
});

Deno.test("planInstall() asks sudo where not root, installs only what is missing, and nothing when nothing is", async () => {
  await using dir = await pathWith(["apt-get", "sudo", "setsid", "setpriv"]);
  const plan = await planInstall({ env: testEnv({ PATH: dir.path }), uid: 1000 });
  assert.deepEqual(plan.commands, [["sudo", "apt-get", "update"], [
    "sudo",
    "apt-get",
    "install",
    "-y",
    "bubblewrap",
  ]]);
  assert.equal(plan.shell, "sudo apt-get update && sudo apt-get install -y bubblewrap");
  await using all = await pathWith(["apt-get", "bwrap", "setsid", "setpriv"]);
  assert.deepEqual(await planInstall({ env: testEnv({ PATH: all.path }), uid: 1000 }), {
    missing: [],
    packages: [],
    commands: [],
    shell: "",
  });
});

Deno.test("planInstall() says what to do with no package manager it knows, or no sudo for a user", async () => {
  await using none = await pathWith([]);
  await assert.rejects(planInstall({ env: testEnv({ PATH: none.path }), uid: 0 }), {
    code: "UNSUPPORTED",
    message: "Cannot install bubblewrap and util-linux: no package manager Link knows is here " +
      "(apt-get, dnf, pacman, zypper, apk)",
    hint: "Install bubblewrap and util-linux with this system's own tools, then run `lnk setup` again",
  });
  await using noSudo = await pathWith(["dnf"]);
  await assert.rejects(planInstall({ env: testEnv({ PATH: noSudo.path }), uid: 1000 }), {
    code: "UNSUPPORTED",
    message: "Cannot install bubblewrap and util-linux: it needs root, and sudo is not here",
    hint: "Run `dnf install -y bubblewrap util-linux` as root, then `lnk setup` again",
  });
});
