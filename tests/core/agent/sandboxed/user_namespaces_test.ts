import assert from "node:assert/strict";
import { join } from "node:path";
import { agentContext, agentStatus, bindKey, loadSettings } from "../../../../core/agent/mod.ts";
import { runAgentRole } from "../../../../core/agent_run/run_agent_run_role.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { type TempHome, tempHome } from "../../../support/mod.ts";
import { createAgent } from "../../../support/sandboxed_agent.ts";
import { startAgent } from "../../../../core/agent/launch/mod.ts";

/** A /proc whose user namespaces are turned off (user.max_user_namespaces = 0). */
async function blockedProc(home: TempHome): Promise<string> {
  const root = join(home.path, "fake-proc");
  await Deno.mkdir(join(root, "sys", "user"), { recursive: true });
  await Deno.writeTextFile(join(root, "sys", "user", "max_user_namespaces"), "0\n");
  return root;
}

const REFUSED = {
  name: "LinkError",
  code: "SANDBOX_UNAVAILABLE",
  message:
    "Cannot start a sandbox: user namespaces are turned off on this machine (user.max_user_namespaces = 0)",
};

Deno.test("lnk agent start on a machine without user namespaces fails with the reason before any service starts (SBX-3)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createAgent(home, model);
  const ctx = agentContext(home.env);
  const settings = await loadSettings(home.paths, agent.id);
  await assert.rejects(startAgent(ctx, settings, { procRoot: await blockedProc(home) }), REFUSED);
  const status = await agentStatus(ctx, settings);
  assert.deepEqual([status.state, status.services], ["stopped", {
    agent: { running: false },
    bridge: { running: false },
  }]);
});

Deno.test("the agent role, with no terminal to ask in, fails the start with the reason, never unsandboxed (SBX-3)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createAgent(home, model);
  await bindKey(home.paths, agent.id);
  const procRoot = await blockedProc(home);
  const stop = new AbortController();
  await assert.rejects(
    runAgentRole(["--agent", agent.id], stop.signal, { env: home.env, procRoot }),
    REFUSED,
  );
});

Deno.test("lnk agent start in a terminal asks nothing when no profile can help, and still fails with the reason (SBX-3)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createAgent(home, model);
  const asked: string[] = [];
  const consent = {
    ask: (q: string) => (asked.push(q), Promise.resolve("y")),
    note: (t: string) => void asked.push(t),
    run: () => Promise.resolve(true),
  };
  const settings = await loadSettings(home.paths, agent.id);
  const procRoot = await blockedProc(home);
  await assert.rejects(startAgent(agentContext(home.env), settings, { consent, procRoot }), REFUSED);
  assert.deepEqual(asked, []);
});
