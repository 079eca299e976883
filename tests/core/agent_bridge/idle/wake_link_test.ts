import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeKey } from "../../../../core/base/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runJson, tempHome } from "../../../support/mod.ts";
import { logEntries, serviceLog, waitForLog } from "../../../support/service_log.ts";

// Real roles as processes on Link Harness, idle_after shortened in the agent's spec; the bridge
// logs each idle check at debug level, which the test waits on.

Deno.test("a real agent on Link Harness stays awake while a turn runs with nothing at its door, then sleeps (PRC-10)", async () => {
  await using home = await tempHome();
  await using model = await serveFakeModel();
  home.env.set("LNK_LOG", "debug");
  const created = await runJson<{ id: string; folders: { config: string } }>(
    ["agent", "create", "work", "--harness", "link", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const id = created.id;
  const spec = join(created.folders.config, "spec.toml");
  await Deno.writeTextFile(spec, (await Deno.readTextFile(spec)).replace('"5m"', '"3s"'));
  await runJson(["agent", "start"], home);
  const reply = model.reply("Built", { hold: true });
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
  // Straight to the harness's socket, as a turn finished at its start runs: the door sees nothing.
  await using endpoint = await openEndpoint(
    { path: join(home.paths.net(id), "endpoint.sock") },
    { agentId: id, agentName: "work", key },
  );
  const meta = { "link.local/thread": "link:main" };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  const asking = endpoint.call("session/prompt", {
    sessionId: "link:main",
    prompt: [{ type: "text", text: "Build it" }],
    _meta: meta,
  });
  await reply.taken;
  const bridgeLog = serviceLog(home, "bridge", id);
  await waitForLog(bridgeLog, (e) => e.check === "turn");
  assert.deepEqual(await logEntries(bridgeLog, (e) => e.msg === "Agent asleep"), []);
  reply.release();
  assert.deepEqual((await asking).result, { stopReason: "end_turn" });
  await waitForLog(bridgeLog, (e) => e.msg === "Agent asleep");
  const status = await runJson<{ state: string }>(["agent", "status"], home);
  assert.equal(status.state, "asleep");
});
