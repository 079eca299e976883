/**
 * Link Memory's tools on the agent's tool proxy (MEM-1): served as `memory` for an agent with
 * memory on alone, called through the real MCP SDK's client over the proxy's unix socket, each
 * call reaching the owner's memory service (`lnk memory serve`, a real child) for the proxy's
 * own agent, whatever the call says.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { newAgentKey } from "../../../core/base/mod.ts";
import { loadAgentConfig, loadSettings } from "../../../core/agent/mod.ts";
import { AgentTools, MemorySeat } from "../../../core/agent_bridge/mod.ts";
import { runJson, tempHome } from "../../support/mod.ts";

type Text = { content: { type: string; text: string }[]; isError?: boolean };

Deno.test("AgentTools serves memory's search and write_note for an agent with memory on, and not for one with it off (MEM-1)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "--json"], home);
  const { id: plainId } = await runJson<{ id: string }>(["agent", "create", "plain", "--json"], home);
  await runJson(["agent", "memory", "on", "--agent", "main", "--json"], home);
  const settings = await loadSettings(home.paths, id);
  const { spec } = await loadAgentConfig(home.paths, settings);
  const key = newAgentKey();
  await using memory = new MemorySeat(home.paths, settings, { spec, key, env: home.env });
  const tools = new AgentTools(home.paths, settings, spec, { memory });
  assert.deepEqual(tools.servers, ["scheduler", "memory"]);
  const plain = await loadSettings(home.paths, plainId);
  assert.deepEqual(
    new AgentTools(home.paths, plain, (await loadAgentConfig(home.paths, plain)).spec).servers,
    [
      "scheduler",
    ],
  );
  await using proxy = await tools.serve();
  const listed = await tools.listTools();
  assert.deepEqual(listed.map((s) => [s.server, s.tools.map((t) => t.name)]), [
    ["scheduler", ["schedule", "list_jobs", "cancel_job", "start_subagent", "send"]],
    ["memory", ["search", "write_note"]],
  ]);
  const secret = tools.newSecret();
  memory.session.wake();
  const http = Deno.createHttpClient({ proxy: { transport: "unix", path: proxy.socket } });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:3129/_link/s/${secret.reveal()}/memory`), {
        fetch: (input: string | URL, init?: RequestInit) => fetch(input, { ...init, client: http }),
      }),
    );
    const wrote = await client.callTool({
      name: "write_note",
      arguments: { name: "people", text: "Bo lives in Lisbon" },
    }) as Text;
    assert.deepEqual(wrote.content[0]!.text, 'Wrote note "people" (18 characters)');
    assert.equal(
      await Deno.readTextFile(join(home.paths.agentFolder("main"), "Agent", "memory", "people.md")),
      "Bo lives in Lisbon",
    );
    // An `agent` the call sends is not the proxy's word: it searches its own agent's memory.
    const found = await client.callTool({
      name: "search",
      arguments: { query: "Lisbon", agent: plainId },
    }) as Text;
    assert.equal(
      found.content[0]!.text,
      '1. note "people", line 1 (by words):\nBo lives in Lisbon\n\n' +
        "(Searched by words alone: no embeddings model is set for this agent ([memory] embeddings in its spec))",
    );
    const bad = await client.callTool({
      name: "write_note",
      arguments: { name: "../../escape", text: "x" },
    }) as Text;
    assert.equal(bad.isError, true);
  } finally {
    await client.close();
    http.close();
  }
});
