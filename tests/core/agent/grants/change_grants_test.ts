import assert from "node:assert/strict";
import { layoutOf, loadAgentConfig } from "../../../../core/agent/mod.ts";
import * as grants from "../../../../core/agent/grants/mod.ts";
import { applyGrants, DEFAULT_SANDBOX_TOML, GRANT_FLAGS, parseSandboxSpec } from "../../../../sandbox/mod.ts";
import { runJson, tempHome } from "../../../support/mod.ts";
import { contextOf, newAgent } from "./_support.ts";

/** One value for every grant flag `lnk sandbox run` takes. */
const SAMPLES: Record<string, string | string[]> = {
  read: ["~/src"],
  write: ["/opt/data"],
  files: ["work=write"],
  host: ["api.example.com"],
  tcp: ["github.com:22"],
  "lan-host": ["nas.local"],
  port: ["5432"],
  command: ["git"],
  tool: ["calendar"],
  "browser-host": ["docs.example"],
  "write-protected": ["~/src/app/.vscode"],
  "network-mode": "host",
};

Deno.test("changeGrants() takes every flag of lnk sandbox run, with the same meaning (GRT-4)", async () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), [...GRANT_FLAGS.multiple, ...GRANT_FLAGS.string].sort());
  await using home = await tempHome();
  const agent = await newAgent(home);
  const ctx = contextOf(home);
  for (const [flag, value] of Object.entries(SAMPLES)) {
    const before = (await loadAgentConfig(home.paths, agent)).sandbox;
    await grants.changeGrants(ctx, agent, { [flag]: value }, "allow");
    const after = (await loadAgentConfig(home.paths, agent)).sandbox;
    assert.deepEqual(after, applyGrants(before, { [flag]: value }, "allow").spec, flag);
    assert.notDeepEqual(after, before, flag);
  }
});

Deno.test("changeGrants() rewrites only the keys that change and keeps every comment (GRT-1)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const file = layoutOf(home.paths, agent).sandboxToml;
  const changed = await grants.changeGrants(contextOf(home), agent, { tcp: ["github.com:22"] }, "allow");
  assert.deepEqual(changed, {
    agent: "main",
    file,
    notes: [],
    changes: [{ key: "internet.tcp", from: [], to: ["github.com:22"] }],
    restartNeeded: false,
  });
  const text = await Deno.readTextFile(file);
  assert.equal(text, DEFAULT_SANDBOX_TOML.replace("tcp = []", 'tcp = ["github.com:22"]'));
  const back = await grants.changeGrants(contextOf(home), agent, { tcp: ["github.com:22"] }, "deny");
  assert.deepEqual(back.changes, [{ key: "internet.tcp", from: ["github.com:22"], to: [] }]);
  assert.equal(await Deno.readTextFile(file), DEFAULT_SANDBOX_TOML);
});

Deno.test("changeGrants() says what changed nothing and writes nothing then", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const file = layoutOf(home.paths, agent).sandboxToml;
  const before = await Deno.stat(file);
  const changed = await grants.changeGrants(contextOf(home), agent, { port: ["80"] }, "deny");
  assert.deepEqual([changed.changes, changed.notes], [[], ["port 80 was not allowed"]]);
  assert.deepEqual((await Deno.stat(file)).mtime, before.mtime);
});

Deno.test("changeGrants() refuses a result the sandbox cannot hold, naming the line, and writes nothing (GRT-5)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const file = layoutOf(home.paths, agent).sandboxToml;
  await assert.rejects(
    grants.changeGrants(contextOf(home), agent, { command: ["*"] }, "deny"),
    (err: Error & { code?: string }) => {
      assert.equal(err.code, "SANDBOX_REFUSED");
      assert.match(
        err.message,
        new RegExp(`^Cannot change the grants: "${file}" line 23: a list of programs`),
      );
      return true;
    },
  );
  await assert.rejects(
    grants.changeGrants(contextOf(home), agent, { files: ["chats=write"] }, "allow"),
    { name: "LinkError", code: "SANDBOX_REFUSED" },
  );
  assert.equal(await Deno.readTextFile(file), DEFAULT_SANDBOX_TOML);
});

Deno.test("changeGrants() names the file and line of a sandbox file it cannot read", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const file = layoutOf(home.paths, agent).sandboxToml;
  await Deno.writeTextFile(file, '[files]\n"." = "write"\nwork = "rw"\n');
  await assert.rejects(
    grants.changeGrants(contextOf(home), agent, { tcp: ["github.com:22"] }, "allow"),
    (err: Error & { code?: string }) => {
      assert.equal(err.code, "CONFIG_INVALID");
      assert.match(err.message, new RegExp(`^Cannot load "${file}": line 3: key "files.work"`));
      return true;
    },
  );
});

Deno.test("changeGrants() starts a missing sandbox file from the commented defaults", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const file = layoutOf(home.paths, agent).sandboxToml;
  await Deno.remove(file);
  await grants.changeGrants(contextOf(home), agent, { "network-mode": "host" }, "allow");
  assert.equal(
    await Deno.readTextFile(file),
    DEFAULT_SANDBOX_TOML.replace('mode = "proxy"', 'mode = "host"'),
  );
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
});

Deno.test("changeGrants() at once from two commands loses neither change", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  await Promise.all([
    grants.changeGrants(contextOf(home), agent, { tcp: ["github.com:22"] }, "allow"),
    grants.changeGrants(contextOf(home), agent, { port: ["5432"] }, "allow"),
    grants.changeGrants(contextOf(home), agent, { "lan-host": ["nas.local"] }, "allow"),
  ]);
  const spec = parseSandboxSpec(await Deno.readTextFile(layoutOf(home.paths, agent).sandboxToml), "x");
  assert.deepEqual([spec.internet.tcp, spec.localhost.ports, spec.lan.hosts], [
    ["github.com:22"],
    [5432],
    ["nas.local"],
  ]);
});

Deno.test("changeGrants() on a running agent says it needs a restart for the change to hold", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home, "main", ["--harness", "mini"]);
  await runJson(["agent", "start"], home);
  const changed = await grants.changeGrants(contextOf(home), agent, { host: ["*"] }, "deny");
  assert.deepEqual([changed.changes, changed.restartNeeded], [
    [{ key: "internet.hosts", from: ["*"], to: [] }],
    true,
  ]);
  await runJson(["agent", "stop"], home);
});
