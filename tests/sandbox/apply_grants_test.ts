import assert from "node:assert/strict";
import { applyGrants, DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../../sandbox/mod.ts";

const DEFAULTS = parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml");

Deno.test("applyGrants() allow adds what each flag names, and lists the keys to rewrite (GRT-4)", () => {
  const { spec, changes, notes } = applyGrants(DEFAULTS, {
    read: ["~/src"],
    write: ["/data/out"],
    files: ["work=write"],
    tcp: ["github.com:22"],
    "network-mode": "host",
    "lan-host": ["nas.local"],
    port: ["5432"],
    command: ["git"],
    tool: ["browser"],
    "browser-host": ["example.com"],
  }, "allow");
  assert.deepEqual(
    {
      paths: spec.paths,
      work: spec.files.work,
      tcp: spec.internet.tcp,
      mode: spec.network.mode,
      lan: spec.lan.hosts,
      ports: spec.localhost.ports,
      commands: spec.commands.allow,
      tools: spec.tools.outside,
      browser: spec.browser.hosts,
    },
    {
      paths: { read: ["~/src"], write: ["/data/out"] },
      work: "write",
      tcp: ["github.com:22"],
      mode: "host",
      lan: ["nas.local"],
      ports: [5432],
      commands: ["*", "git"],
      tools: ["browser"],
      browser: ["example.com"],
    },
  );
  assert.deepEqual(changes.map((c) => `${c.table.join(".")}.${c.key}`).sort(), [
    "browser.hosts",
    "commands.allow",
    "files.work",
    "internet.tcp",
    "lan.hosts",
    "localhost.ports",
    "network.mode",
    "paths.read",
    "paths.write",
    "tools.outside",
  ]);
  assert.deepEqual(notes, []);
});

Deno.test("applyGrants() deny mirrors allow: what allow added, deny takes back (GRT-3, GRT-4)", () => {
  const flags = { tcp: ["github.com:22"], port: ["8080"], "lan-host": ["nas.local"], command: ["git"] };
  const allowed = applyGrants(DEFAULTS, flags, "allow").spec;
  assert.deepEqual(applyGrants(allowed, flags, "deny").spec, DEFAULTS);
});

Deno.test("applyGrants() deny --write keeps reading, deny --read takes both, deny --files lowers", () => {
  const start = applyGrants(DEFAULTS, { write: ["~/a", "~/b"] }, "allow").spec;
  const { spec } = applyGrants(start, { write: ["~/a"], read: ["~/b"], files: ["work=write", "."] }, "deny");
  assert.deepEqual({ paths: spec.paths, work: spec.files.work, home: spec.files["."] }, {
    paths: { read: ["~/a"], write: [] },
    work: "read",
    home: "none",
  });
});

Deno.test("applyGrants() notes a grant that changed nothing", () => {
  assert.deepEqual(applyGrants(DEFAULTS, { host: ["*"], port: ["1"] }, "deny").notes, [
    "port 1 was not allowed",
  ]);
  assert.deepEqual(applyGrants(DEFAULTS, { host: ["*"] }, "allow").notes, ['--host "*" was already allowed']);
});

Deno.test("applyGrants() refuses to deny one host while every host is allowed", () => {
  assert.throws(() => applyGrants(DEFAULTS, { host: ["example.com"] }, "deny"), { code: "REFUSED" });
});

Deno.test("applyGrants() refuses flags it cannot read, as USAGE", () => {
  for (
    const flags of [
      { read: ["relative/path"] },
      { tcp: ["github.com"] },
      { port: ["70000"] },
      { files: ["work"] },
      { files: ["work=all"] },
      { "network-mode": "vpn" },
      { files: ["a/b=read"] },
    ]
  ) {
    assert.throws(() => applyGrants(DEFAULTS, flags, "allow"), { code: "USAGE" }, JSON.stringify(flags));
  }
});
