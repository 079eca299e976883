/**
 * Issue 14's memory end to end, every part real: an agent with memory on started by
 * `lnk agent start` in real bubblewrap; the fake model calls Link Memory's tools through the real
 * MCP SDK and the bridge's tool proxy; the owner's memory service (`lnk memory serve`) indexes the
 * note written in one conversation and finds it from another, by words and by meaning, its
 * embeddings asked through the agent's unix embedding endpoint with the binding proof.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { embeddingProof, encodeKey } from "../../../core/base/mod.ts";
import { askMemoryService } from "../../../core/memory/mod.ts";
import { loadSettings, readKey } from "../../../core/agent/mod.ts";
import { type FakeModelRequest, serveFakeModel } from "../../fakes/fake_model.ts";
import { fakeEmbeddings } from "../../fakes/fake_embeddings.ts";
import { runJson, serviceLog, tempHome } from "../../support/mod.ts";
import { createAgent, sandboxedTest, toolResult } from "../../support/sandboxed_agent.ts";

type Message = { role: string; content?: string };

function lastSays(text: string) {
  return (request: FakeModelRequest) => {
    const last = ((request.body as { messages?: Message[] }).messages ?? []).at(-1);
    return last?.role === "user" && (last.content ?? "").includes(text);
  };
}

function afterTool(request: FakeModelRequest): boolean {
  return ((request.body as { messages?: Message[] }).messages ?? []).at(-1)?.role === "tool";
}

function toolNames(request: FakeModelRequest): string[] {
  return ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) =>
    t.function.name
  );
}

/** The status of one embedding request at the agent's unix embedding endpoint. */
async function embedStatus(socket: string, authorization: string): Promise<number> {
  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
  try {
    const res = await fetch("http://embed/v1/embeddings", {
      client,
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-embed", input: ["kitten"] }),
    });
    await res.body?.cancel();
    return res.status;
  } finally {
    client.close();
  }
}

async function rememberedAcrossConversations(shared: boolean): Promise<void> {
  {
    const embeddings = fakeEmbeddings();
    await using model = await serveFakeModel({ embeddings });
    await using home = await tempHome();
    // Debug lines too: the proof must be in none of them (MEM-6).
    home.env.set("LNK_LOG", "debug");
    if (shared) {
      await Deno.mkdir(home.paths.lnk, { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(home.paths.machineToml, "shared_bridge = true\n", { mode: 0o600 });
    }
    const agent = await createAgent(home, model);
    await runJson(["agent", "memory", "on", "--json"], home);
    const spec = agent.layout.specToml;
    await Deno.writeTextFile(
      spec,
      (await Deno.readTextFile(spec)).replace(
        "[memory]\non = true",
        '[memory]\non = true\nembeddings = "fake-embed"',
      ),
    );
    await runJson(["agent", "start"], home);
    try {
      const wrote = model.replyWhen(lastSays("remember my cat"), {
        kind: "tool_calls",
        calls: [{ name: "write_note", args: { name: "pets", text: "My cat is called Miso." } }],
      });
      const noted = model.replyWhen(afterTool, { kind: "text", text: "Noted." });
      const first = await runJson<{ answer: string }>(
        ["agent", "chat", "send", "--json", "--thread", "one", "remember my cat"],
        home,
      );
      assert.equal(first.answer, "Noted.");
      assert.match(toolResult(await noted.taken), /^Wrote note "pets"/);
      const tools = toolNames(await wrote.taken);
      assert.ok(tools.includes("search") && tools.includes("write_note"), tools.join(", "));

      // Another conversation, by its words.
      model.replyWhen(lastSays("what is my cat called"), {
        kind: "tool_calls",
        calls: [{ name: "search", args: { query: "Miso" } }],
      });
      const byWords = model.replyWhen(afterTool, { kind: "text", text: "Miso." });
      await runJson(["agent", "chat", "send", "--json", "--thread", "two", "what is my cat called"], home);
      const words = await byWords.taken;
      assert.match(
        toolResult(words),
        /^1\. note "pets", line 1 \(by words and meaning\):\nMy cat is called Miso\./,
      );
      assert.deepEqual(toolNames(words), tools, "the tool list is the same at every turn");

      // A third, by meaning alone: no word of the query is in the note.
      model.replyWhen(lastSays("any kitten"), {
        kind: "tool_calls",
        calls: [{ name: "search", args: { query: "kitten" } }],
      });
      const byMeaning = model.replyWhen(afterTool, { kind: "text", text: "Yes, Miso." });
      await runJson(["agent", "chat", "send", "--json", "--thread", "three", "any kitten"], home);
      const meant = toolResult(await byMeaning.taken);
      assert.match(meant, /\d\. note "pets", line 1 \(by meaning\):\nMy cat is called Miso\./);
      assert.doesNotMatch(meant, /link:three/, "the asking conversation's own words are not found");

      // Every embedding came through the endpoint with this binding's proof; none of it reached the provider.
      assert.ok(embeddings.requests.length > 0);
      const key = (await readKey(home.paths, agent.id))!;
      const settings = await loadSettings(home.paths, agent.id);
      const proof = embeddingProof(key, { agentId: agent.id, owner: settings.owner });
      assert.ok(!JSON.stringify(embeddings.requests).includes(proof));
      // The proof is in no log (MEM-6).
      const logs = [
        shared ? join(home.paths.run, "lnk-bridges.log") : serviceLog(home, "bridge", agent.id),
        join(home.paths.run, `lnk-memory-${settings.owner}.log`),
      ];
      for (const log of logs) assert.ok(!(await Deno.readTextFile(log)).includes(proof), log);
      assert.match(await Deno.readTextFile(logs[0]!), /"level":"debug".*"msg":"Embedding endpoint open"/);
      const status = await runJson<{ service: unknown }>(["agent", "memory", "status", "--json"], home);
      assert.deepEqual(status.service, { running: true, serving: true });
      // The memory service holds the proof, never the key: not in its arguments nor its environment (MEM-6).
      const state = await askMemoryService(home.paths, settings.owner, "/state") as { pid: number };
      const seen = await Promise.all(
        ["cmdline", "environ"].map((f) => Deno.readTextFile(`/proc/${state.pid}/${f}`)),
      );
      assert.ok(!seen.join("").includes(encodeKey(key)) && !seen.join("").includes(proof));
      // The owner's own search, while the agent is awake, goes through its service: by meaning too.
      const owners = await runJson<{ by: string; hits: { origin: unknown }[] }>(
        ["agent", "memory", "search", "kitten", "--json"],
        home,
      );
      assert.equal(owners.by, "words and meaning");
      assert.ok(
        owners.hits.some((h) => JSON.stringify(h.origin) === '{"kind":"note","note":"pets","line":1}'),
      );
      // A restart makes a new key: the old proof is refused at the new endpoint, the new one taken (MEM-7).
      await runJson(["agent", "stop"], home);
      await runJson(["agent", "start"], home);
      const renewed = embeddingProof((await readKey(home.paths, agent.id))!, {
        agentId: agent.id,
        owner: settings.owner,
      });
      assert.notEqual(renewed, proof);
      const embed = join(home.paths.run, "embed", `${agent.id}.sock`);
      assert.equal(await embedStatus(embed, `Link-Binding ${agent.id}:${proof}`), 401);
      assert.equal(await embedStatus(embed, `Link-Binding ${agent.id}:${renewed}`), 200);
    } finally {
      await runJson(["agent", "stop"], home);
    }
  }
}

sandboxedTest(
  "memory: a note written in one conversation is found in another by words and by meaning, through the real MCP SDK with the harness in its sandbox (MEM-1, MEM-4)",
  () => rememberedAcrossConversations(false),
);

sandboxedTest(
  "memory on the shared bridge: the same, the agent carried by `lnk agent bridges` (MEM-1)",
  () => rememberedAcrossConversations(true),
);
