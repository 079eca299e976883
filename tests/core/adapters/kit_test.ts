import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { sandboxedTest } from "../../support/sandboxed_agent.ts";

interface KitAnswer {
  ok: boolean;
  rows: { check: string; result: "pass" | "fail" | "skipped"; detail: string }[];
}

/** The kit's rows by check, as `lnk agent harness kit --json` prints them. */
async function kit(home: Parameters<typeof runCli>[1], agent: string): Promise<Record<string, string>> {
  const ran = await runCli(["agent", "harness", "kit", "--agent", agent, "--json"], home);
  const answer = JSON.parse(ran.stdout) as KitAnswer;
  assert.equal(ran.code, answer.ok ? 0 : 1);
  return Object.fromEntries(answer.rows.map((r) => [r.check, r.result]));
}

sandboxedTest(
  "the conformance kit passes for the mini harness, Link Harness and an ACP agent under the hub (ADP-16)",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Kit answer." });
    await using home = await tempHome();
    const tiny = [
      Deno.execPath(),
      "run",
      "--allow-env",
      "--allow-read",
      new URL("../../fixtures/acp_echo_child.ts", import.meta.url).pathname,
    ].join(" ");
    for (
      const [name, harness, more] of [
        ["m", "mini", []],
        ["l", "link", []],
        ["q", "acp", ["--acp-command", tiny]],
      ] as const
    ) {
      await runJson([
        "agent",
        "create",
        name,
        "--harness",
        harness,
        ...more,
        "--model-url",
        model.url,
        "--model",
        "fake-model",
      ], home);
      await runJson(["agent", "start", "--agent", name], home);
    }
    const pass = (rows: Record<string, string>, skipped: string[]) => {
      for (const [check, result] of Object.entries(rows)) {
        assert.equal(result, skipped.includes(check) ? "skipped" : "pass", check);
      }
    };
    pass(await kit(home, "m"), ["needs", "health", "tools narrowing"]);
    pass(await kit(home, "l"), ["needs", "health"]);
    pass(await kit(home, "q"), ["health", "tools narrowing"]);
    for (const name of ["m", "l", "q"]) await runJson(["agent", "stop", "--agent", name], home);
  },
);

Deno.test("the kit on an agent that is not running says so, starting nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "m", "--harness", "mini"], home);
  const ran = await runCli(["agent", "harness", "kit", "--agent", "m", "--json"], home);
  assert.notEqual(ran.code, 0);
  assert.equal(JSON.parse(ran.stdout.trim().split("\n").at(-1)!).error.code, "AGENT_NOT_RUNNING");
});

Deno.test("the kit fails an endpoint that answers a wrong proof or another agent's request", async () => {
  const { miniHarnessHandler } = await import("../../../core/adapters/mini/mod.ts");
  const { serveEndpoint } = await import("../../../connections/mod.ts");
  const { encodeKey, newAgentKey } = await import("../../../core/base/mod.ts");
  const { runKit } = await import("../../../core/adapters/kit/mod.ts");
  const key = newAgentKey();
  const mini = miniHarnessHandler({ agents: [{ id: "kitagent1", name: "k", key: encodeKey(key) }] });
  // It proves the key, then answers any request, proved or not.
  const lax = (req: Request, conn: Parameters<typeof mini>[1]) =>
    new URL(req.url, "http://x").pathname === "/acp"
      ? new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } }) + "\n")
      : mini(req, conn);
  const dir = await Deno.makeTempDir();
  const controller = new AbortController();
  const server = await serveEndpoint({ path: `${dir}/e.sock`, signal: controller.signal }, lax);
  try {
    const rows = await runKit({
      adapter: {
        harness: "lax",
        builtIn: {
          harness: "lax",
          answer: (c) => (c === "contract" ? { version: 2, fields: ["proof", "agent"] } : {}),
        },
      },
      input: {},
      env: { get: () => undefined },
      endpoint: { path: `${dir}/e.sock` },
      agent: { id: "kitagent1", name: "k", key },
    });
    const by = Object.fromEntries(rows.map((r) => [r.check, r.result]));
    assert.equal(by["endpoint proof"], "pass");
    assert.equal(by["caller proof"], "fail");
    assert.equal(by["agent"], "fail");
  } finally {
    controller.abort();
    await server.finished;
    await Deno.remove(dir, { recursive: true });
  }
});
