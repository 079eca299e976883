import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { agentLog } from "../../support/sandboxed_agent.ts";
import { NO_BWRAP } from "../../support/sandbox.ts";
import { NO_QWEN, QWEN_BIN } from "../../support/qwen_code.ts";

Deno.test({
  name:
    "real Qwen Code (qwen --acp) on harness acp answers lnk agent chat send in Link's sandbox, its model the fake through Link",
  ignore: NO_BWRAP !== undefined || NO_QWEN !== undefined,
  async fn() {
    await using model = await serveFakeModel({ defaultText: "Hello from the fake model." });
    await using home = await tempHome();
    const { id } = await runJson<{ id: string }>(
      [
        "agent",
        "create",
        "q",
        "--harness",
        "acp",
        "--acp-command",
        `${QWEN_BIN} --acp`,
        "--model-url",
        model.url,
        "--model",
        "fake-model",
      ],
      home,
    );
    await runJson(["agent", "start", "--agent", "q"], home);
    const sent = await runCli(["agent", "chat", "send", "--agent", "q", "say hello"], home);
    assert.equal(sent.stdout, "Hello from the fake model.\n", sent.stderr);
    // Qwen Code called the agent's model, the user's message in its request.
    const asked = model.requests.map((r) =>
      r.body as { model: string; messages: { role: string; content: unknown }[] }
    );
    assert.ok(asked.length > 0);
    assert.ok(asked.every((b) => b.model === "fake-model"));
    assert.ok(
      asked.some((b) => JSON.stringify(b.messages.filter((m) => m.role === "user")).includes("say hello")),
    );
    // Inside Link's sandbox, under the hub.
    const log = await agentLog(home, id);
    assert.ok(log.some((e) => e.msg === "Agent started" && e.sandboxed === true && e.harness === "acp"));
    assert.ok(log.some((e) => e.msg === "Started the harness's ACP program"));
    // Started again, the thread keeps its conversation: the hub loads Qwen Code's session of it.
    await runJson(["agent", "stop", "--agent", "q"], home);
    await runJson(["agent", "start", "--agent", "q"], home);
    const before = model.requests.length;
    const again = await runCli(["agent", "chat", "send", "--agent", "q", "and again"], home);
    assert.equal(again.stdout, "Hello from the fake model.\n", again.stderr);
    const later = model.requests.slice(before).map((r) => JSON.stringify(r.body));
    assert.ok(
      later.some((body) => body.includes("say hello") && body.includes("and again")),
      "the earlier turn is in the conversation",
    );
    await runJson(["agent", "stop", "--agent", "q"], home);
  },
});
