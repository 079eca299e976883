/**
 * `lnk agent status` and an outside harness's health (SBX-15, SBX-13), with a stand-in adapter
 * program (_support.ts) whose health check appends to a log in the harness home it runs in, so a
 * health check sandbox that ran leaves a line: a 2xx at the harness's port spawns none; a 503 runs
 * it, in a sandbox reaching that port alone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentContext, loadSettings } from "../../../../core/agent/mod.ts";
import { harnessHealth } from "../../../../core/agent/setup/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson } from "../../../support/mod.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";
import { createAgent, homeWithAdapter, runs } from "./_support.ts";

/** The stand-in's health: a line in its log, then whether the port given answers 2xx through curl. */
const HEALTH = `echo run >> "$HOME/health.log"; ` +
  `code=$(curl -s -o /dev/null --max-time 20 -w '%{http_code}' "http://127.0.0.1:$(cat "$HOME/port")/"); ` +
  `echo "{\\"ok\\":false,\\"detail\\":\\"the harness said $code\\"}"`;

sandboxedTest(
  "status of a running outside harness whose port answers 200 runs no health check sandbox; its --json says health by port (SBX-15)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("healthy", { health: HEALTH });
    const id = await createAgent(home, "healthy", model.url);
    await runJson(["agent", "start", "--agent", "a"], home);
    const status = await runJson<{ state: string; health: { ok: boolean; by: string } }>(
      ["agent", "status", "--agent", "a"],
      home,
    );
    assert.equal(status.state, "running");
    assert.deepEqual([status.health.ok, status.health.by], [true, "port"]);
    const text = await runCli(["agent", "status", "--agent", "a"], home);
    assert.match(text.stdout, /health: {2}ok \(its port answered 200\)/);
    await runJson(["agent", "stop", "--agent", "a"], home);
    assert.equal(await runs(join(home.paths.agentState(id), "harnesses", "healthy", "health.log")), 0);
  },
);

sandboxedTest(
  "a harness port answering 503 runs the adapter's health check in its sandbox, which reaches that port (SBX-15, SBX-13)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("unwell", { health: HEALTH });
    const id = await createAgent(home, "unwell", model.url);
    await using harness = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("no key", { status: 503 }),
    );
    const harnessHome = join(home.paths.agentState(id), "harnesses", "unwell");
    await Deno.mkdir(harnessHome, { recursive: true });
    await Deno.writeTextFile(join(harnessHome, "port"), String(harness.addr.port));
    const ctx = agentContext(home.env, { home: home.path });
    const health = await harnessHealth(ctx, await loadSettings(home.paths, id), { port: harness.addr.port });
    assert.deepEqual(health, { ok: false, detail: "the harness said 503", by: "sandbox" });
    assert.equal(await runs(join(harnessHome, "health.log")), 1);
  },
);
