/**
 * The attack suite, Link Memory (MEM-2, MEM-4): each attempt made by a command of the `run` tool
 * inside a real sandboxed Link Harness with memory on, at what memory keeps outside: the owner's
 * memory service socket, the agent's unix embedding endpoint and its index, none of which any
 * sandbox sees; and at memory's tools on the tool proxy without the harness's secret. Run as root
 * here and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { joinPath } from "../../core/base/mod.ts";
import { loadSettings } from "../../core/agent/mod.ts";
import { fakeEmbeddings } from "../fakes/fake_embeddings.ts";
import { serveFakeModel } from "../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../support/mod.ts";
import { createAgent, runStdout, sandboxedTest, toolResult } from "../support/sandboxed_agent.ts";

sandboxedTest(
  "run's commands cannot reach memory: not its service's socket, the embedding endpoint, the index, nor its tools without the secret (MEM-2, MEM-4)",
  async () => {
    await using model = await serveFakeModel({ embeddings: fakeEmbeddings() });
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await runJson(["agent", "memory", "on", "--json"], home);
    const spec = agent.layout.specToml;
    await Deno.writeTextFile(
      spec,
      (await Deno.readTextFile(spec)).replace("[memory]\non = true", '[memory]\non = true\nembeddings = "e"'),
    );
    await runJson(["agent", "start"], home);
    try {
      // Memory's service is started as the agent wakes; a first search holds its session.
      model.replyToolCall("search", { query: "anything" });
      model.reply("ok");
      assert.equal((await runCli(["agent", "chat", "send", "warm up"], home)).code, 0);
      const owner = (await loadSettings(home.paths, agent.id)).owner;
      const service = joinPath(home.paths.run, `memory-${owner}.sock`);
      const embed = joinPath(home.paths.run, "embed", `${agent.id}.sock`);
      const index = joinPath(home.paths.agentState(agent.id), "memory", "index.sqlite");
      for (const path of [service, embed, index]) await Deno.lstat(path);
      const script = [
        'code() { curl -s -m 10 -o /dev/null -w "%{http_code}" "$@"; }',
        `echo "ask the memory service's socket for its state: $(code --unix-socket ${service} http://x/state)"`,
        `echo "search another agent's memory at the service: $(code --unix-socket ${service} -X POST ` +
        `-d '{"agent":"${agent.id}","query":"x"}' http://x/search)"`,
        `echo "embed at the agent's endpoint with a forged owner header: $(code --unix-socket ${embed} -X POST ` +
        `-H "link-owner: ${owner}" -d '{"model":"e","input":["x"]}' http://x/v1/embeddings)"`,
        `echo "read the memory index: $(head -c 16 ${index} 2>/dev/null | wc -c) bytes"`,
        'post() { curl -s -m 10 -o /dev/null -w "%{http_code}" -X POST -H "content-type: application/json" ' +
        '-H "accept: application/json, text/event-stream" ' +
        '-d \'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_note","arguments":{"name":"x","text":"planted"}}}\' "$@"; }',
        'echo "call memory\'s tools with no secret: $(post http://127.0.0.1:3129/memory)"',
      ].join("\n");
      model.replyToolCall("run", { command: ["sh", "-c", script] });
      model.reply("Done.");
      assert.equal((await runCli(["agent", "chat", "send", "try"], home)).code, 0);
      await model.nextRequest();
      await model.nextRequest();
      await model.nextRequest();
      assert.equal(
        runStdout(toolResult(await model.nextRequest())),
        [
          "ask the memory service's socket for its state: 000",
          "search another agent's memory at the service: 000",
          "embed at the agent's endpoint with a forged owner header: 000",
          "read the memory index: 0 bytes",
          "call memory's tools with no secret: 403",
        ].join("\n"),
      );
      await assert.rejects(Deno.lstat(joinPath(agent.layout.agent, "memory", "x.md")), Deno.errors.NotFound);
    } finally {
      await runJson(["agent", "stop"], home);
    }
  },
);
