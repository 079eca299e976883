/**
 * DeepSeek Harness with a hosted model (OpenAI's): its sandboxed start made in this process so its
 * proxy can be pointed at a loopback fake standing in for api.openai.com, as the hosted key's test
 * of an ACP agent does. dsh (the stand-in of tests/support/dsh.ts; NO_REAL_DSH says why) sends the
 * placeholder its settings and the hub give it, and the proxy puts the real key in its place: the
 * fake refuses any request without it, and no file of the harness home holds it (SBX-16, SBX-17).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { NO_REAL_DSH, standInDshInstall } from "../../../support/dsh.ts";
import { tempHome } from "../../../support/mod.ts";
import { HOSTED_KEY, OPENAI_ADDRESS, startHostedHarness } from "../../../support/hosted_harness.ts";
import { askEndpoint, sandboxedTest } from "../../../support/sandboxed_agent.ts";

// deno-lint-ignore no-console -- the reason the real harness is not run must be seen.
console.log(`DeepSeek Harness hosted key test: ${NO_REAL_DSH}`);

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
    await using model = await serveFakeModel({ key: HOSTED_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    await standInDshInstall(home.path);
    const { harness, dialled, id, agent } = await startHostedHarness(home, model, {
      name: "d",
      harness: "deepseek",
    });
    await using _ = harness;
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    assert.ok(model.requests.length > 0);
    for (const request of model.requests) {
      assert.equal(request.headers.authorization, `Bearer ${HOSTED_KEY}`);
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
      assert.equal((await Deno.readTextFile(file)).includes(HOSTED_KEY), false, file);
    }
  },
);
