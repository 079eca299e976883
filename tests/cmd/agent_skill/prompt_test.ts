import assert from "node:assert/strict";
import { join } from "node:path";
import { readKey } from "../../../core/agent/mod.ts";
import { openEndpoint } from "../../../connections/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { createAgent, sandboxedTest, type TestAgent } from "../../support/sandboxed_agent.ts";
import { gitRepo, skillMd } from "../../support/git_repo.ts";

/** One message on a thread, its tools narrowed when `tools` says, as a carrier or the scheduler sends it. */
async function ask(home: TempHome, agent: TestAgent, thread: string, tools?: string[]): Promise<void> {
  const key = await readKey(home.paths, agent.id);
  assert.ok(key, "the agent runs, its key bound");
  const path = join(home.paths.net(agent.id), "endpoint.sock");
  await using endpoint = await openEndpoint({ path }, { agentId: agent.id, agentName: agent.name, key });
  const meta = { "link.local/thread": thread, ...(tools ? { "link.local/tools": tools } : {}) };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  await endpoint.call("session/prompt", {
    sessionId: thread,
    prompt: [{ type: "text", text: "hi" }],
    _meta: meta,
  });
}

sandboxedTest(
  "a skill lnk agent skill add installed is in the prompt of the started agent's conversation and of a narrowed subagent's, memory off (SKL-5)",
  async () => {
    await using model = await serveFakeModel({ defaultText: "ok" });
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await using repo = await gitRepo({ "skills/pdf/SKILL.md": skillMd("Reads and fills PDF forms") });
    const added = await runCli(["agent", "skill", "add", `${repo.path}/skills/pdf`], home);
    assert.equal(added.code, 0, added.stderr);
    await runJson(["agent", "start"], home);
    try {
      await ask(home, agent, "link:main");
      await ask(home, agent, "sub:j-0123456789abcdefghij", ["read_file"]);
    } finally {
      await runJson(["agent", "stop"], home);
    }
    const bodies = model.requests.map((r) =>
      r.body as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] }
    );
    assert.equal(bodies.length, 2);
    for (const body of bodies) {
      const system = body.messages.find((m) => m.role === "system")?.content ?? "";
      assert.match(system, /\n- pdf: Reads and fills PDF forms\n/);
    }
    assert.deepEqual(
      bodies[1]!.tools?.map((t) => t.function.name),
      ["read_file"],
      "the subagent's tools are narrowed",
    );
  },
);
