/**
 * DeepSeek Harness with a hosted model (OpenAI's): its sandboxed start made in this process so its
 * proxy can be pointed at a loopback fake standing in for api.openai.com, as the hosted key's test
 * of an ACP agent does. dsh (the stand-in of tests/support/dsh.ts; NO_REAL_DSH says why) sends the
 * placeholder its settings and the hub give it, and the proxy puts the real key in its place: the
 * fake refuses any request without it, and no file of the harness home holds it (SBX-16, SBX-17).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  agentContext,
  bindKey,
  layoutOf,
  loadAgentConfig,
  loadSettings,
} from "../../../../core/agent/mod.ts";
import { startSandboxedHarness } from "../../../../core/agent/launch/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { NO_REAL_DSH, standInDshInstall } from "../../../support/dsh.ts";
import { runJson, tempHome } from "../../../support/mod.ts";
import { askEndpoint, sandboxedTest } from "../../../support/sandboxed_agent.ts";

// deno-lint-ignore no-console -- the reason the real harness is not run must be seen.
console.log(`DeepSeek Harness hosted key test: ${NO_REAL_DSH}`);

const REAL_KEY = "sk-real-0123456789abcdef";
const OPENAI_ADDRESS = "104.18.7.192";

async function* filesUnder(path: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(path)) {
    const at = join(path, entry.name);
    if (entry.isDirectory) yield* filesUnder(at);
    else if (entry.isFile) yield at;
  }
}

sandboxedTest(
  "DeepSeek Harness calls a hosted model through Link's proxy, which adds the key: dsh holds the placeholder alone (SBX-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    await standInDshInstall(home.path);
    home.env.set("OPENAI_API_KEY", REAL_KEY);
    const { id } = await runJson<{ id: string }>(
      ["agent", "create", "d", "--harness", "deepseek", "--model", "openai/gpt-4.1-nano"],
      home,
    );
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
    const agent = { id, name: settings.name, layout: layoutOf(home.paths, settings) };
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    assert.ok(model.requests.length > 0);
    for (const request of model.requests) {
      assert.equal(request.headers.authorization, `Bearer ${REAL_KEY}`);
      assert.equal((request.body as { model: string }).model, "gpt-4.1-nano");
    }
    assert.ok(
      dialled.length > 0 && dialled.every(([address, port]) => address === OPENAI_ADDRESS && port === 443),
    );
    // dsh's settings name the proxy's base URL, and its credentials the placeholder: no file holds the key.
    const harnessHome = join(home.paths.agentState(id), "harnesses", "deepseek");
    const route = JSON.parse(await Deno.readTextFile(join(harnessHome, ".dsh", "settings.yaml")))["llm-pi-ai"]
      .providers.lnk;
    assert.match(route.baseURL, /^http:\/\/127\.0\.0\.1:3128\/_link\/s\//);
    assert.equal(
      await Deno.readTextFile(join(harnessHome, ".dsh", ".credentials.yaml")),
      "OPENAI_API_KEY: link-placeholder\n",
    );
    for await (const file of filesUnder(harnessHome)) {
      assert.equal((await Deno.readTextFile(file)).includes(REAL_KEY), false, file);
    }
  },
);
