import assert from "node:assert/strict";
import {
  DEFAULT_PRICE,
  LOCAL_PRICE,
  LOCAL_SERVERS,
  type LocalServer,
  PROVIDERS,
  type ResolvedModel,
  resolveModel,
} from "../../../../core/harness/model/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock } from "../../../support/fake_clock.ts";

/** A loopback address nothing listens on. */
function deadServer(): LocalServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return { name: "dead", baseUrl: `http://127.0.0.1:${port}/v1` };
}

/** A loopback server that takes connections and never answers. */
function hangingServer(): LocalServer & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) conns.push(conn);
    } catch {
      // Closed.
    }
  })();
  return {
    name: "hanging",
    baseUrl: `http://127.0.0.1:${listener.addr.port}/v1`,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of conns) conn.close();
      await accepting;
    },
  };
}

/** The resolved model with its key revealed, for whole-value asserts. */
function plain(resolved: ResolvedModel): Record<string, unknown> {
  const { key, ...rest } = resolved;
  return key ? { ...rest, key: key.reveal() } : rest;
}

const NO_KEYS = new Map<string, string>();

Deno.test("PROVIDERS lists openrouter, openai and deepseek, each default at $0.10 in and $0.50 out, none openrouter/auto (MDL-1)", () => {
  assert.deepEqual(PROVIDERS.map((p) => p.name), ["openrouter", "openai", "deepseek"]);
  for (const provider of PROVIDERS) {
    assert.deepEqual(provider.price, { inPerMillion: 0.1, outPerMillion: 0.5 }, provider.name);
    assert.notEqual(provider.defaultModel, "openrouter/auto", provider.name);
    assert.notEqual(provider.defaultModel, "auto", provider.name);
  }
  assert.deepEqual(LOCAL_SERVERS.map((s) => new URL(s.baseUrl).port), ["11434", "8080", "1234"]);
});

Deno.test("resolveModel() with nothing set picks the default provider and its default model, without a key (MDL-2)", async () => {
  const resolved = await resolveModel({ env: NO_KEYS, candidates: [deadServer()] });
  assert.deepEqual(plain(resolved), {
    provider: "openrouter",
    baseUrl: "https://openrouter.ai/api/v1",
    model: "deepseek/deepseek-chat",
    keyVar: "OPENROUTER_API_KEY",
    price: DEFAULT_PRICE,
    chosenBy: "default",
  });
});

Deno.test("resolveModel() picks the first provider whose key variable is set", async () => {
  const env = new Map([["DEEPSEEK_API_KEY", "sk-ds"], ["OPENAI_API_KEY", ""]]);
  const resolved = await resolveModel({ env, candidates: [] });
  assert.deepEqual(plain(resolved), {
    provider: "deepseek",
    baseUrl: "https://api.deepseek.com/v1",
    model: "deepseek-chat",
    keyVar: "DEEPSEEK_API_KEY",
    key: "sk-ds",
    price: DEFAULT_PRICE,
    chosenBy: "key",
  });
});

Deno.test("resolveModel() prefers a local server that answers, skipping a dead candidate", async () => {
  await using model = await serveFakeModel({ models: ["llama3.2:3b", "qwen3:8b"] });
  const env = new Map([["OPENAI_API_KEY", "sk-oa"]]);
  const candidates = [deadServer(), { name: "fake", baseUrl: model.url }];
  const resolved = await resolveModel({ env, candidates });
  assert.deepEqual(plain(resolved), {
    provider: "local",
    baseUrl: model.url,
    model: "llama3.2:3b",
    price: LOCAL_PRICE,
    chosenBy: "local",
  });
  assert.equal(model.probes.length, 1);
  assert.equal(model.requests.length, 0);
});

Deno.test("resolveModel() takes the first answering candidate in list order, not waiting on later ones", async () => {
  await using first = await serveFakeModel({ models: ["first-model"] });
  await using second = await serveFakeModel({ models: ["second-model"] });
  await using hanging = hangingServer();
  const resolved = await resolveModel({
    env: NO_KEYS,
    candidates: [{ name: "a", baseUrl: first.url }, hanging, { name: "b", baseUrl: second.url }],
  });
  assert.deepEqual([resolved.baseUrl, resolved.model], [first.url, "first-model"]);
});

Deno.test("resolveModel() gives up on a local server that never answers after the probe deadline", async () => {
  await using hanging = hangingServer();
  const clock = new FakeClock();
  const resolving = resolveModel({ env: NO_KEYS, candidates: [hanging], clock, probeTimeoutMs: 300 });
  await clock.waitForSleepers();
  await clock.advance(300);
  assert.equal((await resolving).chosenBy, "default");
});

Deno.test("resolveModel() reads provider/model from --model, and never probes local servers for it", async () => {
  await using local = await serveFakeModel();
  const candidates = [{ name: "fake", baseUrl: local.url }];
  const env = new Map([["OPENAI_API_KEY", "sk-oa"]]);
  const cases: [string, Map<string, string>, string, string][] = [
    ["openai/gpt-4o", env, "openai", "gpt-4o"],
    ["openai/gpt-4o", new Map([["OPENROUTER_API_KEY", "sk-or"]]), "openrouter", "openai/gpt-4o"],
    ["deepseek/deepseek-reasoner", NO_KEYS, "deepseek", "deepseek-reasoner"],
    ["anthropic/claude-sonnet-4", env, "openrouter", "anthropic/claude-sonnet-4"],
    ["openrouter/anthropic/claude-sonnet-4", NO_KEYS, "openrouter", "anthropic/claude-sonnet-4"],
    ["openrouter/auto", NO_KEYS, "openrouter", "openrouter/auto"],
    ["gpt-4.1-mini", NO_KEYS, "openai", "gpt-4.1-mini"],
    ["deepseek-reasoner", NO_KEYS, "deepseek", "deepseek-reasoner"],
    ["mistral-small", NO_KEYS, "openrouter", "mistral-small"],
    ["mistral-small", env, "openai", "mistral-small"],
  ];
  for (const [name, keys, provider, model] of cases) {
    const resolved = await resolveModel({ model: name, env: keys, candidates });
    assert.deepEqual(
      [resolved.provider, resolved.model, resolved.chosenBy],
      [provider, model, "model"],
      name,
    );
  }
  assert.equal(local.probes.length, 0);
});

Deno.test("resolveModel() prices a named default model and leaves an unknown model's price unknown", async () => {
  const named = await resolveModel({ model: "deepseek/deepseek-chat", env: NO_KEYS, candidates: [] });
  const larger = await resolveModel({ model: "openai/gpt-4o", env: NO_KEYS, candidates: [] });
  assert.deepEqual([named.price, larger.price], [DEFAULT_PRICE, undefined]);
});

Deno.test("resolveModel() with local/<model> uses the local server, or a keyed provider where none answers (MDL-3)", async () => {
  await using local = await serveFakeModel({ models: ["llama3.2:3b"] });
  const here = await resolveModel({
    model: "local/qwen3:8b",
    env: NO_KEYS,
    candidates: [{ name: "fake", baseUrl: local.url }],
  });
  assert.deepEqual([here.provider, here.baseUrl, here.model], ["local", local.url, "qwen3:8b"]);
  const box = await resolveModel({
    model: "local/qwen3:8b",
    env: new Map([["DEEPSEEK_API_KEY", "sk-ds"]]),
    candidates: [deadServer()],
  });
  assert.deepEqual([box.provider, box.model, box.chosenBy, box.key?.reveal()], [
    "deepseek",
    "deepseek-chat",
    "key",
    "sk-ds",
  ]);
});

Deno.test("resolveModel() lets --model-url win, asking a loopback URL for its model when none is named", async () => {
  await using local = await serveFakeModel({ models: ["served-model"] });
  const keys = new Map([["OPENROUTER_API_KEY", "sk-or"]]);
  const probed = await resolveModel({ modelUrl: `${local.url}/`, env: keys });
  assert.deepEqual(plain(probed), {
    provider: "local",
    baseUrl: local.url,
    model: "served-model",
    price: LOCAL_PRICE,
    chosenBy: "model-url",
  });
  const named = await resolveModel({ modelUrl: local.url, model: "other", env: keys });
  assert.deepEqual([named.provider, named.model], ["local", "other"]);
  assert.equal(local.probes.length, 1);
});

Deno.test("resolveModel() knows a provider by its URL, and refuses a remote URL with no model named", async () => {
  const keys = new Map([["OPENAI_API_KEY", "sk-oa"]]);
  const openai = await resolveModel({ modelUrl: "https://api.openai.com/v1/", env: keys });
  assert.deepEqual(plain(openai), {
    provider: "openai",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4.1-nano",
    keyVar: "OPENAI_API_KEY",
    key: "sk-oa",
    price: DEFAULT_PRICE,
    chosenBy: "model-url",
  });
  const custom = await resolveModel({ modelUrl: "https://models.example.com/v1", model: "m", env: keys });
  assert.deepEqual(plain(custom), {
    provider: "custom",
    baseUrl: "https://models.example.com/v1",
    model: "m",
    price: undefined,
    chosenBy: "model-url",
  });
  await assert.rejects(resolveModel({ modelUrl: "https://models.example.com/v1", env: keys }), {
    name: "LinkError",
    code: "CONFIG_INVALID",
  });
  await assert.rejects(resolveModel({ modelUrl: "not a url", env: keys }), {
    name: "LinkError",
    code: "CONFIG_INVALID",
  });
});
