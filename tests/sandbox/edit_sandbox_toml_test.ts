import assert from "node:assert/strict";
import { applyGrants, DEFAULT_SANDBOX_TOML, editSandboxToml, parseSandboxSpec } from "../../sandbox/mod.ts";

Deno.test("editSandboxToml() rewrites only the changed keys and keeps every comment (GRT-4)", () => {
  const text = `# My agent's grants.
[files]
"." = "write"   # all of Home
instructions = "read"

# The internet.
[internet]
hosts = [
  "api.openai.com", # the model
]
tcp = []
`;
  const result = editSandboxToml(text, [
    { table: ["files"], key: "work", value: "read" },
    { table: ["internet"], key: "hosts", value: ["api.openai.com", "github.com"] },
    { table: ["internet"], key: "tcp", value: ["github.com:22"] },
    { table: ["localhost"], key: "ports", value: [5432] },
  ]);
  assert.equal(
    result,
    `# My agent's grants.
[files]
"." = "write"   # all of Home
instructions = "read"
work = "read"

# The internet.
[internet]
hosts = ["api.openai.com", "github.com"]
tcp = ["github.com:22"]

[localhost]
ports = [5432]
`,
  );
});

Deno.test("editSandboxToml() keeps the comment after a one-line value it replaces", () => {
  assert.equal(
    editSandboxToml('[network]\nmode = "proxy" # the default\n', [{
      table: ["network"],
      key: "mode",
      value: "host",
    }]),
    '[network]\nmode = "host" # the default\n',
  );
});

Deno.test("editSandboxToml() removes a key whose value is undefined", () => {
  assert.equal(
    editSandboxToml('[files]\n"." = "write"\nwork = "read"\n', [{
      table: ["files"],
      key: "work",
      value: undefined,
    }]),
    '[files]\n"." = "write"\n',
  );
});

Deno.test("editSandboxToml() with applyGrants keeps the default file's comments", () => {
  const spec = parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml");
  const { changes } = applyGrants(spec, { tcp: ["github.com:22"], "network-mode": "host" }, "allow");
  const edited = editSandboxToml(DEFAULT_SANDBOX_TOML, changes);
  const comments = (t: string) => t.split("\n").filter((l) => l.startsWith("#"));
  assert.deepEqual(comments(edited), comments(DEFAULT_SANDBOX_TOML));
  const reread = parseSandboxSpec(edited, "sandbox.toml");
  assert.deepEqual([reread.internet.tcp, reread.network.mode], [["github.com:22"], "host"]);
});

Deno.test("editSandboxToml() refuses a layout it cannot edit in place, rather than write a wrong file", () => {
  assert.throws(
    () =>
      editSandboxToml('network = { mode = "proxy" }\n', [{ table: ["network"], key: "mode", value: "host" }]),
    { code: "CONFIG_INVALID" },
  );
});
