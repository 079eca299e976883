import assert from "node:assert/strict";
import { join } from "node:path";
import { isLinkError } from "../../../core/base/mod.ts";
import {
  type Adapter,
  askAdapter,
  askContract,
  findAdapter,
  needsLine,
  readAnswer,
} from "../../../core/adapters/mod.ts";

/** A PATH holding one `lnk-<harness>` program, the shell script given, in a temp dir. */
async function adapterOnPath(harness: string, script: string) {
  const dir = await Deno.makeTempDir({ prefix: "lnk-adapter-" });
  const path = join(dir, `lnk-${harness}`);
  await Deno.writeTextFile(path, `#!/bin/sh\n${script}\n`);
  await Deno.chmod(path, 0o755);
  const vars = new Map([["PATH", `${dir}:/usr/bin:/bin`]]);
  const env = { get: (name: string) => vars.get(name) };
  const adapter = await findAdapter(harness, { env, builtIns: [] });
  return {
    adapter,
    env,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isLinkError(err), `not a LinkError: ${err}`);
    return { code: err.code, message: err.message };
  }
  assert.fail("the adapter was not refused");
}

const NEEDS = JSON.stringify({
  spec: { paths: { read: ["/opt/tool"] }, localhost: { ports: [9000] } },
  why: { paths: "the program of the tool", localhost: "its local server" },
  risks: [{ name: "managed-browser", why: "opens a browser", optional: true, without: "no browser" }],
});

Deno.test("an adapter on the PATH is asked with its command and the agent's input, and its answer read to the contract (ADP-12)", async () => {
  await using a = await adapterOnPath(
    "demo",
    `read line; case "$1" in contract) echo '{"version":2,"fields":["proof"]}';; ` +
      `needs) echo '${NEEDS}';; endpoint) echo "$line" | grep -q '"name":"q"' && echo '{"port":18820}';; ` +
      `*) echo '{}';; esac`,
  );
  const contract = await askContract(a.adapter, { env: a.env });
  assert.deepEqual(contract.fields, ["proof"]);
  const needs = await askAdapter(a.adapter, "needs", { env: a.env });
  assert.equal(needs?.risks[0]?.name, "managed-browser");
  assert.equal(needs?.risks[0]?.optional, true);
  assert.equal(needsLine(needs!.spec), "--read /opt/tool --port 9000");
  const input = { agent: { id: "abcdef12", name: "q", harness: "demo", ports: { endpoint: 1, block: 2 } } };
  assert.deepEqual(await askAdapter(a.adapter, "endpoint", { env: a.env, input }), { port: 18820 });
  // `{}` is "nothing to say": the command needs nothing more (GRT-17).
  assert.equal(await askAdapter(a.adapter, "health", { env: a.env }), undefined);
});

Deno.test("an adapter's failures are each a LinkError naming it and what it did", async (t) => {
  await t.step("garbage", async () => {
    await using a = await adapterOnPath("junk", "echo 'hello there'");
    const err = await refusal(askAdapter(a.adapter, "needs", { env: a.env }));
    assert.equal(err.code, "SERVICE_FAILED");
    assert.match(err.message, /"junk".*`needs`.*not JSON/);
  });
  await t.step("a non-zero exit, with its stderr's first line", async () => {
    await using a = await adapterOnPath("crash", "echo 'cannot find config' >&2; echo more >&2; exit 3");
    const err = await refusal(askAdapter(a.adapter, "endpoint", { env: a.env }));
    assert.equal(err.code, "SERVICE_FAILED");
    assert.match(err.message, /"crash".*exit 3.*cannot find config$/);
  });
  await t.step("a hang", async () => {
    await using a = await adapterOnPath("hang", "exec sleep 600");
    const err = await refusal(askAdapter(a.adapter, "health", { env: a.env, timeoutMs: 200 }));
    assert.equal(err.code, "TIMEOUT");
    assert.match(err.message, /"hang".*`health`/);
  });
  await t.step("more than the cap", async () => {
    await using a = await adapterOnPath("loud", "yes '{}' | head -c 100000");
    const err = await refusal(askAdapter(a.adapter, "state", { env: a.env, maxBytes: 1000 }));
    assert.equal(err.code, "SERVICE_FAILED");
    assert.match(err.message, /more than 1000 bytes/);
  });
  await t.step("version 1, by its contract or by needs naming permissions (GRT-17)", async () => {
    await using a = await adapterOnPath(
      "old",
      `case "$1" in contract) echo '{"version":1}';; needs) echo '{"permissions":["network"]}';; esac`,
    );
    const err = await refusal(askContract(a.adapter, { env: a.env }));
    assert.equal(err.code, "UNSUPPORTED");
    assert.match(err.message, /"old" is older than this Link/);
    assert.equal((await refusal(askAdapter(a.adapter, "needs", { env: a.env }))).code, "UNSUPPORTED");
  });
  await t.step("an adapter with nothing to say to contract is taken for version 1", async () => {
    await using a = await adapterOnPath("silent", "echo '{}'");
    assert.equal((await refusal(askContract(a.adapter, { env: a.env }))).code, "UNSUPPORTED");
  });
  await t.step("an unknown grant in needs, named (GRT-15)", async () => {
    await using a = await adapterOnPath(
      "greedy",
      `echo '{"spec":{"paths":{"read":["/x"]},"kernel":{"modules":true}},"why":{"paths":"x"}}'`,
    );
    const err = await refusal(askAdapter(a.adapter, "needs", { env: a.env }));
    assert.equal(err.code, "SANDBOX_REFUSED");
    assert.match(err.message, /"greedy".*kernel/);
  });
});

Deno.test("needs refuse a relative path, a version or name, hosts, and a section with no why (GRT-16, GRT-25)", () => {
  const refused = (raw: unknown) => {
    try {
      readAnswer("h", "needs", raw);
    } catch (err) {
      assert.ok(isLinkError(err, "SANDBOX_REFUSED"), String(err));
      return err.message;
    }
    assert.fail(`accepted ${JSON.stringify(raw)}`);
  };
  assert.match(refused({ spec: { paths: { read: ["tools/bin"] } }, why: { paths: "x" } }), /relative/);
  assert.match(refused({ spec: { name: "x" } }), /name/);
  assert.match(refused({ spec: { version: 2 } }), /version/);
  assert.match(refused({ spec: { internet: { hosts: ["*"] } }, why: { internet: "x" } }), /hosts/);
  assert.match(refused({ spec: { localhost: { ports: [1] } } }), /why/);
  assert.match(refused({ risks: [{ name: "read", why: "x" }] }), /grant flag/);
});

Deno.test("a harness with no adapter is HARNESS_MISSING, naming the program to install", async () => {
  const env = { get: (name: string) => (name === "PATH" ? "/nonexistent" : undefined) };
  const err = await refusal(findAdapter("nosuch", { env, builtIns: [] }));
  assert.equal(err.code, "HARNESS_MISSING");
  const found: Adapter = await findAdapter("mine", {
    env,
    builtIns: [{ harness: "mine", answer: () => ({ version: 2 }) }],
  });
  assert.equal((await askContract(found, { env })).version, 2);
});

Deno.test("Link's own adapters answer as programs too: lnk harness adapter <harness> <command> --json", async () => {
  const { runLnk, tempHome } = await import("../../support/mod.ts");
  await using home = await tempHome();
  const contract = await runLnk(["harness", "adapter", "acp", "contract", "--json"], home);
  assert.equal(contract.code, 0, contract.stderr);
  assert.equal(readAnswer("acp", "contract", JSON.parse(contract.stdout))?.version, 2);
  // The agent's settings on stdin: acp's needs grant where its command's program lives (here, /usr: nothing).
  const input = {
    agent: {
      id: "abcdef12",
      name: "q",
      harness: "acp",
      ports: { endpoint: 1, block: 2 },
      settings: { command: ["sh"] },
    },
  };
  const endpoint = await runLnk(["harness", "adapter", "acp", "endpoint", "--json"], home, {
    stdin: `${JSON.stringify(input)}\n`,
  });
  assert.equal(
    readAnswer("acp", "endpoint", JSON.parse(endpoint.stdout))?.stdio?.command[0]?.endsWith("/sh"),
    true,
  );
  const needs = await runLnk(["harness", "adapter", "acp", "needs", "--json"], home, {
    stdin: `${JSON.stringify(input)}\n`,
  });
  assert.deepEqual(JSON.parse(needs.stdout), {});
  const bad = await runLnk(["harness", "adapter", "nope", "contract", "--json"], home);
  assert.notEqual(bad.code, 0);
});
