import assert from "node:assert/strict";
import { loadSettings, updateSettings } from "../../../../core/agent/mod.ts";
import * as grants from "../../../../core/agent/grants/mod.ts";
import { ProxyKeyInput } from "../../../../proxy/mod.ts";
import { tempHome } from "../../../support/mod.ts";
import { newAgent } from "./_support.ts";

Deno.test("keyWired() wires Link Harness, acp, OpenClaw, Hermes and DeepSeek by default, and no other (SBX-17)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const wired = ["link", "acp", "openclaw", "hermes", "deepseek", "mini", "outside"].map((harness) => [
    harness,
    grants.keyWired({ ...agent, harness }),
  ]);
  assert.deepEqual(wired, [
    ["link", { wired: true, by: "default" }],
    ["acp", { wired: true, by: "default" }],
    ["openclaw", { wired: true, by: "default" }],
    ["hermes", { wired: true, by: "default" }],
    ["deepseek", { wired: true, by: "default" }],
    ["mini", { wired: false, by: "default" }],
    ["outside", { wired: false, by: "default" }],
  ]);
  assert.deepEqual(grants.keyWired({ ...agent, secrets: { wire: false } }), { wired: false, by: "setting" });
  assert.deepEqual(grants.keyWired({ ...agent, harness: "outside", secrets: { wire: true } }), {
    wired: true,
    by: "setting",
  });
});

Deno.test("modelKeysFor() gives the proxy the provider's host and key, put in place of the placeholder in Authorization (SBX-16)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home, "main", ["--model", "openai/gpt-4.1-nano"]);
  home.env.set("OPENAI_API_KEY", "sk-real-123");
  const keys = await grants.modelKeysFor(agent, home.env, { candidates: [] });
  assert.deepEqual(keys.map((k) => ({ ...k, value: k.value.reveal() })), [{
    host: "api.openai.com",
    header: "authorization",
    value: "sk-real-123",
    placeholder: "link-placeholder",
  }]);
  // The proxy role reads keys in this form on its stdin: each one passes its schema.
  const parsed = ProxyKeyInput.parse({ ...keys[0], value: keys[0]!.value.reveal() });
  assert.equal(parsed.placeholder, "link-placeholder");
  assert.equal(String(keys[0]!.value), "[redacted]");
});

Deno.test("modelWiring() hands the harness the placeholder when wired and the key when it holds it (SBX-16, SBX-17)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home, "main", ["--model", "deepseek-chat"]);
  home.env.set("DEEPSEEK_API_KEY", "sk-deep");
  const wired = await grants.modelWiring(agent, { env: home.env, candidates: [] });
  assert.deepEqual([wired.provider, wired.keyVar, wired.env, wired.keys.length], [
    "deepseek",
    "DEEPSEEK_API_KEY",
    { DEEPSEEK_API_KEY: "link-placeholder" },
    1,
  ]);
  const held = await grants.modelWiring({ ...agent, secrets: { wire: false } }, {
    env: home.env,
    candidates: [],
  });
  assert.deepEqual([held.env, held.keys], [{ DEEPSEEK_API_KEY: "sk-deep" }, []]);
});

Deno.test("modelKeysFor() adds nothing without a key, or for a model on this machine", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  assert.deepEqual(await grants.modelKeysFor(agent, home.env, { candidates: [] }), []);
  const local = { ...agent, model_url: "http://127.0.0.1:11434/v1", model: "qwen3" };
  home.env.set("OPENROUTER_API_KEY", "sk-or");
  assert.deepEqual(await grants.modelKeysFor(local, home.env, { candidates: [] }), []);
  const wiring = await grants.modelWiring(local, { env: home.env, candidates: [] });
  assert.deepEqual([wiring.provider, wiring.keyVar, wiring.env], ["local", undefined, {}]);
});

Deno.test("setKeyWiring() keeps [secrets] wire in the agent's settings, either way", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  await grants.setKeyWiring(home.paths, agent, false);
  assert.deepEqual((await loadSettings(home.paths, agent.id)).secrets, { wire: false });
  await updateSettings(home.paths, agent.id, (s) => ({ ...s, model: "gpt-4.1-nano" }));
  await grants.setKeyWiring(home.paths, await loadSettings(home.paths, agent.id), true);
  const saved = await loadSettings(home.paths, agent.id);
  assert.deepEqual([saved.secrets, saved.model], [{ wire: true }, "gpt-4.1-nano"]);
  assert.match(await Deno.readTextFile(home.paths.settingsToml(agent.id)), /\[secrets\]\nwire = true\n/);
});
