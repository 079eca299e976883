import assert from "node:assert/strict";
import { agentContext, bindKey, layoutOf, loadAgentConfig, loadSettings } from "../../../core/agent/mod.ts";
import { startSandboxedHarness } from "../../../core/agent/launch/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { askEndpoint, sandboxedTest } from "../../support/sandboxed_agent.ts";
import { NO_BWRAP } from "../../support/sandbox.ts";
import { NO_QWEN, QWEN_BIN } from "../../support/qwen_code.ts";
import { TINY_AGENT } from "./_support.ts";

const REAL_KEY = "sk-real-0123456789abcdef";
const OPENAI_ADDRESS = "104.18.7.192";

/**
 * An agent on harness acp with a hosted model (OpenAI's), its sandboxed start made in this process
 * so its proxy can be pointed at a loopback fake standing in for api.openai.com, as the hosted key's
 * test of Link Harness does: names resolve from a table, the checked address is dialled to the fake,
 * and "TLS" hands the connection back. The fake refuses any request without the real key.
 */
async function hostedAcpAgent(
  home: TempHome,
  model: Awaited<ReturnType<typeof serveFakeModel>>,
  command: string,
) {
  home.env.set("OPENAI_API_KEY", REAL_KEY);
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "q", "--harness", "acp", "--acp-command", command, "--model", "openai/gpt-4.1-nano"],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  const key = await bindKey(home.paths, id);
  const { spec } = await loadAgentConfig(home.paths, settings);
  const dialled: [string, number][] = [];
  const harness = await startSandboxedHarness(agentContext(home.env), settings, key, {
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
  return { harness, dialled, agent: { id, name: settings.name, layout: layoutOf(home.paths, settings) } };
}

sandboxedTest(
  "an ACP agent under the hub calls a hosted model through Link's proxy, which adds the key: the agent holds a placeholder (SBX-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
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
        `Bearer ${REAL_KEY}`,
        "gpt-4.1-nano",
      ],
    );
    assert.deepEqual(dialled, [[OPENAI_ADDRESS, 443]]);
    const env = await askEndpoint(home, agent, "env");
    assert.equal(env.includes(REAL_KEY), false, "the agent's environment holds no real key");
    assert.match(env, /"OPENAI_BASE_URL":"http:\/\/127\.0\.0\.1:3128\/_link\/s\//);
  },
);

Deno.test({
  name: "real Qwen Code calls a hosted model through Link's proxy, which adds the key (SBX-16)",
  ignore: NO_BWRAP !== undefined || NO_QWEN !== undefined,
  async fn() {
    await using model = await serveFakeModel({ key: REAL_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    const { harness, dialled, agent } = await hostedAcpAgent(home, model, `${QWEN_BIN} --acp`);
    await using _ = harness;
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    assert.ok(model.requests.length > 0);
    assert.ok(model.requests.every((r) => r.headers.authorization === `Bearer ${REAL_KEY}`));
    assert.ok(dialled.every(([address, port]) => address === OPENAI_ADDRESS && port === 443));
  },
});
