/**
 * The real OpenClaw (2026.9.x from npm, on Node 24) as a Link agent: in its sandbox, behind its
 * proxy, answering `lnk agent chat send` against the fake model through `openclaw acp` and its
 * gateway (ADP-1..3, ADP-16, PRT-1, SBX-17). Each start is seconds and about a gigabyte, so one
 * agent serves every step. The test seeds the install folder from the CI's cache
 * (tests/support/openclaw.ts), which the start's install step finds there, and the endpoint's
 * launcher configures OpenClaw. Ignored, saying why, where OpenClaw or bubblewrap is missing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { HOSTED_KEY, OPENAI_ADDRESS, startHostedHarness } from "../../../support/hosted_harness.ts";
import { askEndpoint } from "../../../support/sandboxed_agent.ts";
import { NO_BWRAP } from "../../../support/sandbox.ts";
import { NO_OPENCLAW, seedOpenClawInstall } from "../../../support/openclaw.ts";

interface KitAnswer {
  ok: boolean;
  rows: { check: string; result: "pass" | "fail" | "skipped"; detail: string }[];
}

Deno.test({
  name:
    "an agent on the real OpenClaw starts in its sandbox behind its proxy, answers chat send, passes the kit, runs doctor --fix once over three starts, and has a config it edited rewritten",
  ignore: NO_OPENCLAW !== undefined || NO_BWRAP !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using model = await serveFakeModel({ defaultText: "Hello from OpenClaw." });
    await using home = await tempHome();
    const install = await seedOpenClawInstall(home.path);
    const { id, ports } = await runJson<{ id: string; ports: { endpoint: number } }>(
      ["agent", "create", "main", "--harness", "openclaw", "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    // main keeps OpenClaw's own port (PRT-1); a start that finds it taken moves the block (PRT-4).
    assert.equal(ports.endpoint, 18789);
    const portNow = async () =>
      (await runJson<{ ports: { endpoint: number } }>(["agent", "status", "--agent", "main"], home)).ports
        .endpoint;
    const harnessHome = join(home.paths.agentState(id), "harnesses", "openclaw");
    const config = join(harnessHome, ".openclaw", "openclaw.json");
    const doctorRuns = async () => {
      const logs = await runCli(["agent", "logs", "--agent", "main"], home);
      return logs.stdout.split("\n").filter((l) => l.includes("Running openclaw doctor --fix")).length;
    };
    const send = async () => {
      const sent = await runCli(["agent", "chat", "send", "--agent", "main", "hi"], home);
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(sent.stdout.trim(), "Hello from OpenClaw.");
    };

    await t.step(
      "it starts sandboxed behind its proxy, main on 18789, and answers through openclaw",
      async () => {
        const started = await runJson<{ harness: string; sandboxed?: boolean; port?: number }>(
          ["agent", "start", "--agent", "main"],
          home,
        );
        assert.equal(started.harness, "openclaw");
        await send();
        // It ran in its sandbox behind its proxy, the only way out, by which the fake model was called.
        const logs = (await runCli(["agent", "logs", "--agent", "main"], home)).stdout;
        assert.match(
          logs,
          /"msg":"Agent started"[^\n]*"harness":"openclaw"[^\n]*"sandboxed":true,"proxied":true/,
        );
        assert.ok(model.requests.length > 0);
        const text = JSON.parse(await Deno.readTextFile(config));
        assert.equal(text.gateway.port, await portNow());
        assert.equal(text.agents.defaults.model.primary, "lnk/fake-model");
        assert.notEqual(text.models.providers.lnk.apiKey, "");
        assert.equal(
          (await Deno.readTextFile(join(harnessHome, ".lnk", "doctor"))).trim(),
          JSON.parse(await Deno.readTextFile(join(install, "node_modules", "openclaw", "package.json")))
            .version,
        );
        const status = await runJson<{ harness: string; sandbox?: { enabled?: boolean } }>(
          ["agent", "status", "--agent", "main"],
          home,
        );
        assert.equal(status.harness, "openclaw");
      },
    );

    await t.step("the conformance kit passes against it (ADP-16)", async () => {
      const ran = await runCli(["agent", "harness", "kit", "--agent", "main", "--json"], home);
      const answer = JSON.parse(ran.stdout) as KitAnswer;
      const rows = Object.fromEntries(answer.rows.map((r) => [r.check, r.result]));
      assert.deepEqual(rows, {
        "contract": "pass",
        "needs": "pass",
        "health": "pass",
        "endpoint proof": "pass",
        "caller proof": "pass",
        "squatter": "pass",
        "agent": "pass",
        "chat": "pass",
        "tools narrowing": "skipped",
      }, ran.stdout);
      assert.equal(ran.code, 0);
    });

    await t.step(
      "a config the harness edited is rewritten from Link's settings at the next start (ADP-2)",
      async () => {
        await runJson(["agent", "stop", "--agent", "main"], home);
        const edited = JSON.parse(await Deno.readTextFile(config));
        edited.agents.defaults.model.primary = "openai/gpt-elsewhere";
        edited.gateway.port = 9;
        await Deno.writeTextFile(config, JSON.stringify(edited));
        await runJson(["agent", "start", "--agent", "main"], home);
        await send();
        const now = JSON.parse(await Deno.readTextFile(config));
        assert.equal(now.agents.defaults.model.primary, "lnk/fake-model");
        assert.equal(now.gateway.port, await portNow());
      },
    );

    await t.step("doctor --fix ran once over three starts (ADP-3)", async () => {
      await runJson(["agent", "stop", "--agent", "main"], home);
      await runJson(["agent", "start", "--agent", "main"], home);
      await send();
      assert.equal(await doctorRuns(), 1);
      await runJson(["agent", "stop", "--agent", "main"], home);
    });
  },
});

Deno.test({
  name:
    "the real OpenClaw calls a hosted model through Link's proxy, which adds the key: its config holds the placeholder alone (SBX-16, SBX-17)",
  ignore: NO_OPENCLAW !== undefined || NO_BWRAP !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using model = await serveFakeModel({ key: HOSTED_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    await seedOpenClawInstall(home.path);
    const { harness, dialled, id, agent } = await startHostedHarness(home, model, {
      name: "main",
      harness: "openclaw",
    });
    await using _ = harness;
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    assert.ok(model.requests.length > 0);
    for (const request of model.requests) {
      assert.equal(request.headers.authorization, `Bearer ${HOSTED_KEY}`);
    }
    assert.ok(
      dialled.length > 0 && dialled.every(([address, port]) => address === OPENAI_ADDRESS && port === 443),
    );
    const config = JSON.parse(
      await Deno.readTextFile(
        join(home.paths.agentState(id), "harnesses", "openclaw", ".openclaw", "openclaw.json"),
      ),
    );
    assert.equal(config.models.providers.lnk.apiKey, "link-placeholder");
    assert.match(config.models.providers.lnk.baseUrl, /^http:\/\/127\.0\.0\.1:3128\/_link\/s\//);
  },
});
