import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { type TempHome, tempHome } from "../../support/mod.ts";
import { HOSTED_KEY, OPENAI_ADDRESS, startHostedHarness } from "../../support/hosted_harness.ts";
import { askEndpoint, sandboxedTest } from "../../support/sandboxed_agent.ts";
import { NO_BWRAP } from "../../support/sandbox.ts";
import { NO_QWEN, QWEN_BIN } from "../../support/qwen_code.ts";
import { TINY_AGENT } from "./_support.ts";

/** An agent on harness acp named by its command, with a hosted model, started here. */
function hostedAcpAgent(
  home: TempHome,
  model: Awaited<ReturnType<typeof serveFakeModel>>,
  command: string,
) {
  return startHostedHarness(home, model, { name: "q", harness: "acp", more: ["--acp-command", command] });
}

sandboxedTest(
  "an ACP agent under the hub calls a hosted model through Link's proxy, which adds the key: the agent holds a placeholder (SBX-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ key: HOSTED_KEY });
    await using home = await tempHome();
    const command = TINY_AGENT.join(" ");
    const { harness, dialled, agent } = await hostedAcpAgent(home, model, command);
    await using _ = harness;
    model.reply("Keyed answer.");
    assert.equal(await askEndpoint(home, agent, "model: hi"), "echo(1): model: hi -> Keyed answer.");
    const request = await model.nextRequest();
    assert.deepEqual(
      [request.path, request.headers.authorization, (request.body as { model: string }).model],
      [
        "/v1/chat/completions",
        `Bearer ${HOSTED_KEY}`,
        "gpt-4.1-nano",
      ],
    );
    assert.deepEqual(dialled, [[OPENAI_ADDRESS, 443]]);
    const env = await askEndpoint(home, agent, "env");
    assert.equal(env.includes(HOSTED_KEY), false, "the agent's environment holds no real key");
    assert.match(env, /"OPENAI_BASE_URL":"http:\/\/127\.0\.0\.1:3128\/_link\/s\//);
  },
);

Deno.test({
  name: "real Qwen Code calls a hosted model through Link's proxy, which adds the key (SBX-16)",
  ignore: NO_BWRAP !== undefined || NO_QWEN !== undefined,
  async fn() {
    await using model = await serveFakeModel({ key: HOSTED_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    const { harness, dialled, agent } = await hostedAcpAgent(home, model, `${QWEN_BIN} --acp`);
    await using _ = harness;
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    assert.ok(model.requests.length > 0);
    assert.ok(model.requests.every((r) => r.headers.authorization === `Bearer ${HOSTED_KEY}`));
    assert.ok(dialled.every(([address, port]) => address === OPENAI_ADDRESS && port === 443));
  },
});
