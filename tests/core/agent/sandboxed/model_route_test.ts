import assert from "node:assert/strict";
import { Secret } from "../../../../core/base/mod.ts";
import { parseSandboxSpec } from "../../../../sandbox/mod.ts";
import type { ResolvedModel } from "../../../../core/harness/model/mod.ts";
import { startSandboxProxy } from "../../../../sandbox/mod.ts";
import { modelRoute } from "../../../../core/agent/launch/model_route.ts";

const OPENAI: ResolvedModel = {
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4.1-nano",
  keyVar: "OPENAI_API_KEY",
  key: new Secret("sk-real"),
  price: undefined,
  chosenBy: "model",
};

async function withProxy(fn: (proxy: Awaited<ReturnType<typeof startSandboxProxy>>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "lnk-route-" });
  try {
    await using proxy = await startSandboxProxy(dir, parseSandboxSpec("", "sandbox.toml"), { keys: [] });
    await fn(proxy);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The secret segment of the proxy's root, so whole URLs can be compared. */
function secretOf(root: string): string {
  return /\/_link\/s\/([^/]+)\//.exec(root)![1]!;
}

Deno.test("modelRoute() sends a hosted model through the proxy's base-URL form with the placeholder when wired (SBX-16, SBX-19)", async () => {
  await withProxy((proxy) => {
    const s = secretOf(proxy.root);
    assert.equal(proxy.root, `http://127.0.0.1:3128/_link/s/${s}/`);
    assert.deepEqual(modelRoute(OPENAI, { proxy, wired: true }), {
      model: {
        baseUrl: `http://127.0.0.1:3128/_link/s/${s}/https/api.openai.com/v1`,
        model: "gpt-4.1-nano",
        key: "link-placeholder",
      },
    });
    return Promise.resolve();
  });
});

Deno.test("modelRoute() hands the harness the key itself when it holds it, and no key when none is set (SBX-17, MDL-2)", async () => {
  await withProxy((proxy) => {
    const s = secretOf(proxy.root);
    const baseUrl = `http://127.0.0.1:3128/_link/s/${s}/https/api.openai.com/v1`;
    assert.deepEqual(modelRoute(OPENAI, { proxy, wired: false }), {
      model: { baseUrl, model: "gpt-4.1-nano", key: "sk-real" },
    });
    assert.deepEqual(modelRoute({ ...OPENAI, key: undefined }, { proxy, wired: true }), {
      model: { baseUrl, model: "gpt-4.1-nano", key: undefined },
    });
    return Promise.resolve();
  });
});

Deno.test("modelRoute() relays a model on this machine's loopback in on its own port, whatever loopback name it has", async () => {
  await withProxy((proxy) => {
    const local: ResolvedModel = {
      provider: "local",
      baseUrl: "http://localhost:11434/v1",
      model: "llama3",
      price: undefined,
      chosenBy: "local",
    };
    assert.deepEqual(modelRoute(local, { proxy, wired: true }), {
      model: { baseUrl: "http://127.0.0.1:11434/v1", model: "llama3", key: undefined },
      port: 11434,
    });
    assert.deepEqual(modelRoute({ ...local, baseUrl: "http://127.0.0.1:8080" }, { proxy, wired: true }), {
      model: { baseUrl: "http://127.0.0.1:8080", model: "llama3", key: undefined },
      port: 8080,
    });
    return Promise.resolve();
  });
});

Deno.test("modelRoute() sends another server through the proxy, and calls the model as it is without a proxy (network mode host)", async () => {
  await withProxy((proxy) => {
    const s = secretOf(proxy.root);
    const custom: ResolvedModel = {
      provider: "custom",
      baseUrl: "https://models.example.com/v1",
      model: "m",
      price: undefined,
      chosenBy: "model-url",
    };
    assert.deepEqual(modelRoute(custom, { proxy, wired: true }), {
      model: {
        baseUrl: `http://127.0.0.1:3128/_link/s/${s}/https/models.example.com/v1`,
        model: "m",
        key: undefined,
      },
    });
    return Promise.resolve();
  });
  assert.deepEqual(modelRoute(OPENAI, { wired: true }), {
    model: { baseUrl: "https://api.openai.com/v1", model: "gpt-4.1-nano", key: "sk-real" },
  });
});
