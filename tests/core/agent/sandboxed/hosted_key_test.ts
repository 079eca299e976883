import assert from "node:assert/strict";
import {
  agentContext,
  bindKey,
  layoutOf,
  loadAgentConfig,
  loadSettings,
} from "../../../../core/agent/mod.ts";
import { startSandboxedHarness } from "../../../../core/agent/launch/sandboxed_harness.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runJson, tempHome } from "../../../support/mod.ts";
import { askEndpoint, runStdout, sandboxedTest, toolResult } from "../../../support/sandboxed_agent.ts";

const REAL_KEY = "sk-real-0123456789abcdef";
const OPENAI_ADDRESS = "104.18.7.192";

// The agent role's own start of the sandboxed harness, in this process so its proxy can be pointed
// at a loopback fake standing in for api.openai.com: names resolve from a table, the checked
// address is dialled to the fake, and "TLS" hands the connection back as it is (the proxy's own
// tests speak real TLS). The fake model refuses any request without the real key.
sandboxedTest(
  "the agent's proxy adds the hosted model's key in place of the placeholder; the sandboxed harness holds no key (SBX-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    home.env.set("OPENAI_API_KEY", REAL_KEY);
    const { id } = await runJson<{ id: string }>(["agent", "create", "--model", "openai/gpt-4.1-nano"], home);
    const settings = await loadSettings(home.paths, id);
    const key = await bindKey(home.paths, id);
    const { spec } = await loadAgentConfig(home.paths, settings);
    const dialled: [string, number][] = [];
    await using _harness = await startSandboxedHarness(agentContext(home.env), settings, key, {
      spec,
      modelCandidates: [],
      upstream: {
        resolve: (name) => Promise.resolve(name === "api.openai.com" ? [OPENAI_ADDRESS] : []),
        dial: (address, port) => {
          dialled.push([address, port]);
          return Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(model.url).port) });
        },
        startTls: (conn) => Promise.resolve(conn),
        localNetworks: [],
        machineNames: [],
      },
    });
    model.replyToolCall("run", { command: ["sh", "-c", "env"] });
    model.reply("Keyed answer.");
    const agent = { id, name: settings.name, layout: layoutOf(home.paths, settings) };
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed answer.");
    const [first, second] = [await model.nextRequest(), await model.nextRequest()];
    assert.deepEqual(
      [first, second].map((r) => [r.path, r.headers.authorization, (r.body as { model: string }).model]),
      [
        ["/v1/chat/completions", `Bearer ${REAL_KEY}`, "gpt-4.1-nano"],
        ["/v1/chat/completions", `Bearer ${REAL_KEY}`, "gpt-4.1-nano"],
      ],
    );
    assert.deepEqual(dialled, [[OPENAI_ADDRESS, 443], [OPENAI_ADDRESS, 443]]);
    const env = runStdout(toolResult(second));
    assert.equal(env.includes(REAL_KEY), false);
    assert.deepEqual(env.split("\n").filter((line) => line.startsWith("OPENAI")), []);
  },
);
