import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeKey, newAgentKey } from "../../../../core/base/mod.ts";
import { parseSpec } from "../../../../core/agent/mod.ts";
import { loadServedAgent } from "../../../../core/harness/mod.ts";
import { builtinTools, toolDefinitions } from "../../../../core/harness/tools/mod.ts";
import { narrowConversationTools } from "../../../../core/harness/turns/conversation_tools.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../../../../sandbox/mod.ts";
import { tempHome } from "../../../support/mod.ts";

Deno.test("loadServedAgent() tells the model of the tools handed over, narrowed per conversation, and runs one at its first call (PRN-2, TRN-12, PRC-13)", async () => {
  await using home = await tempHome();
  const folders = { agent: join(home.paths.home, "Agent"), home: join(home.paths.home, "Home") };
  await Deno.mkdir(folders.home, { recursive: true });
  await Deno.writeTextFile(join(folders.home, "note.txt"), "kept");
  const grants = parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml");
  const handed = toolDefinitions(builtinTools({ grants }));
  const loaded = await loadServedAgent({
    id: "a1b2c3d4",
    name: "main",
    key: encodeKey(newAgentKey()),
    owner: "local-test",
    folders,
    spec: parseSpec("", "spec.toml"),
    grants,
    model: { baseUrl: "http://127.0.0.1:9/v1", model: "fake-model" },
    tools: handed,
  }, { paths: home.paths, env: home.env });
  try {
    const { tools, store } = loaded.agent;
    assert.deepEqual(await tools.definitions("link:a"), handed);
    await narrowConversationTools(store, "link:b", ["read_file"]);
    assert.deepEqual(
      await tools.definitions("link:b"),
      handed.filter((d) => d.function.name === "read_file"),
    );
    const read = await tools.run(
      { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"note.txt"}' } },
      { conversation: "link:b", signal: new AbortController().signal },
    );
    assert.equal(read.ok, true);
    assert.match(read.content, /kept/);
  } finally {
    await loaded.runner?.[Symbol.asyncDispose]();
    await loaded.store[Symbol.asyncDispose]();
  }
});
