import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { tempHome } from "../../../support/mod.ts";
import { HOSTED_KEY, OPENAI_ADDRESS, startHostedHarness } from "../../../support/hosted_harness.ts";
import { askEndpoint, runStdout, sandboxedTest, toolResult } from "../../../support/sandboxed_agent.ts";

// The agent role's own start of the sandboxed harness, in this process so its proxy can be pointed
// at a loopback fake standing in for api.openai.com (tests/support/hosted_harness.ts; the proxy's
// own tests speak real TLS). The fake model refuses any request without the real key.
sandboxedTest(
  "the agent's proxy adds the hosted model's key in place of the placeholder; the sandboxed harness holds no key (SBX-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ key: HOSTED_KEY });
    await using home = await tempHome();
    const { harness, dialled, agent } = await startHostedHarness(home, model, {
      name: "main",
      harness: "link",
    });
    await using _harness = harness;
    model.replyToolCall("run", { command: ["sh", "-c", "env"] });
    model.reply("Keyed answer.");
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed answer.");
    const [first, second] = [await model.nextRequest(), await model.nextRequest()];
    assert.deepEqual(
      [first, second].map((r) => [r.path, r.headers.authorization, (r.body as { model: string }).model]),
      [
        ["/v1/chat/completions", `Bearer ${HOSTED_KEY}`, "gpt-4.1-nano"],
        ["/v1/chat/completions", `Bearer ${HOSTED_KEY}`, "gpt-4.1-nano"],
      ],
    );
    assert.deepEqual(dialled, [[OPENAI_ADDRESS, 443], [OPENAI_ADDRESS, 443]]);
    const env = runStdout(toolResult(second));
    assert.equal(env.includes(HOSTED_KEY), false);
    assert.deepEqual(env.split("\n").filter((line) => line.startsWith("OPENAI")), []);
  },
);
