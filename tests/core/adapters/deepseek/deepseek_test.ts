/**
 * An agent on DeepSeek Harness as a person runs it: `lnk agent create d --harness deepseek`, started
 * in its sandbox behind its proxy, answering `lnk agent chat send` against the fake model through
 * `dsh --profile acp` under the hub, and passing the kit (ADP-1, ADP-2, ADP-16). The `dsh` is the
 * stand-in of tests/support/dsh.ts, as the real one cannot be installed from npm (NO_REAL_DSH says
 * why): it reads the settings configure wrote and asks the model they name. The
 * start runs its install step, which finds the install folder the test laid out; the endpoint's
 * launcher configures dsh. Ignored, saying why, where bubblewrap cannot run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DSH_RELEASE } from "../../../../core/adapters/deepseek/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { NO_REAL_DSH, standInDshInstall } from "../../../support/dsh.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { NO_BWRAP } from "../../../support/sandbox.ts";

// deno-lint-ignore no-console -- the reason the real harness is not run must be seen.
console.log(`DeepSeek Harness agent test: ${NO_REAL_DSH}`);

interface KitAnswer {
  ok: boolean;
  rows: { check: string; result: "pass" | "fail" | "skipped"; detail: string }[];
}

Deno.test({
  name:
    "an agent on DeepSeek Harness starts in its sandbox behind its proxy, answers chat send through dsh's ACP with the model its settings name, passes the kit, and has settings it edited put back at the next start (ADP-1, ADP-2, ADP-16)",
  ignore: NO_BWRAP !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using model = await serveFakeModel({ defaultText: "Hello from DeepSeek Harness." });
    await using home = await tempHome();
    const { id, ports } = await runJson<{ id: string; ports: { endpoint: number } }>(
      ["agent", "create", "d", "--harness", "deepseek", "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    assert.ok(ports.endpoint > 0);
    const harnessHome = join(home.paths.agentState(id), "harnesses", "deepseek");
    const settingsFile = join(harnessHome, ".dsh", "settings.yaml");
    const send = async (text: string) => {
      const sent = await runCli(["agent", "chat", "send", "--agent", "d", text], home);
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(sent.stdout.trim(), "Hello from DeepSeek Harness.");
    };

    // The start runs the install step in its sandbox: it finds the stand-in there and marks it.
    await standInDshInstall(home.path);
    await t.step("it starts sandboxed behind its proxy and answers through dsh", async () => {
      const started = await runJson<{ harness: string }>(["agent", "start", "--agent", "d"], home);
      assert.equal(started.harness, "deepseek");
      const marker = JSON.parse(await Deno.readTextFile(`${home.paths.installDir("deepseek")}.installed`));
      assert.equal(marker.release, DSH_RELEASE);
      await send("hi");
      const logs = (await runCli(["agent", "logs", "--agent", "d"], home)).stdout;
      assert.match(
        logs,
        /"msg":"Agent started"[^\n]*"harness":"deepseek"[^\n]*"sandboxed":true,"proxied":true/,
      );
      // dsh asked the model its settings name, with what the person said.
      const asked = model.requests.at(-1)!;
      const body = asked.body as { model: string; messages: { role: string; content: string }[] };
      assert.equal(body.model, "fake-model");
      assert.deepEqual(body.messages.at(-1), { role: "user", content: "hi" });
      const settings = JSON.parse(await Deno.readTextFile(settingsFile));
      assert.deepEqual(settings["agent-default-model"], { provider: "lnk", model: "fake-model" });
      assert.equal(
        await Deno.readTextFile(join(harnessHome, ".dsh", ".credentials.yaml")),
        "OPENAI_API_KEY: link-placeholder\n",
      );
    });

    await t.step("the conformance kit passes against it (ADP-16)", async () => {
      const ran = await runCli(["agent", "harness", "kit", "--agent", "d", "--json"], home);
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
      "settings the harness edited are put back from Link's at the next start (ADP-2)",
      async () => {
        await runJson(["agent", "stop", "--agent", "d"], home);
        const edited = JSON.parse(await Deno.readTextFile(settingsFile));
        edited["agent-default-model"] = { provider: "deepseek-official", model: "deepseek-v4-flash" };
        await Deno.writeTextFile(settingsFile, JSON.stringify(edited));
        await runJson(["agent", "start", "--agent", "d"], home);
        await send("again");
        const now = JSON.parse(await Deno.readTextFile(settingsFile));
        assert.deepEqual(now["agent-default-model"], { provider: "lnk", model: "fake-model" });
        await runJson(["agent", "stop", "--agent", "d"], home);
      },
    );
  },
});
