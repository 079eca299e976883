import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { createAgent, howStarted, runStdout, toolResult } from "../../../support/sandboxed_agent.ts";

Deno.test("lnk agent start --no-sandbox runs the harness as a plain child, not proxied, and it stays so; status says so (GRT-6, GRT-23)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createAgent(home, model);
  const started = await runJson<{ sandbox: string }>(["agent", "start", "--no-sandbox", "--json"], home);
  assert.equal(started.sandbox, "off");
  // Unsandboxed, the harness's run tool reaches what a sandbox hides.
  const settings = home.paths.settingsToml(agent.id);
  model.replyToolCall("run", { command: ["sh", "-c", `test -r "${settings}" && echo readable`] });
  model.reply("Plain.");
  assert.deepEqual(await runCli(["agent", "chat", "send", "hi"], home), {
    code: 0,
    stdout: "Plain.\n",
    stderr: "",
  });
  await model.nextRequest();
  assert.equal(runStdout(toolResult(await model.nextRequest())), "readable");
  await runJson(["agent", "stop"], home);
  const restarted = await runJson<{ sandbox: string }>(["agent", "start", "--json"], home);
  assert.equal(restarted.sandbox, "off");
  const status = await runCli(["agent", "status"], home);
  assert.match(status.stdout, /harness: link, sandbox off/);
  assert.deepEqual(await howStarted(home, agent.id), [
    { harness: "link", sandboxed: false, proxied: false },
    { harness: "link", sandboxed: false, proxied: false },
  ]);
  await runJson(["agent", "stop"], home);
});
