import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent chat send refuses a harness that speaks its own connections, saying so (LOC-3)", async () => {
  await using home = await tempHome();
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "lnk-ownchat"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  await runJson(["agent", "create", "--harness", "ownchat"], home);
  const sent = await runCli(["agent", "chat", "send", "hi"], home);
  assert.deepEqual(sent, {
    code: 1,
    stdout: "",
    stderr: 'error: Cannot chat with agent "main": its harness "ownchat" speaks its own connections and ' +
      "has no endpoint to send to\n  hint: Talk to it on one of its connections, or make an agent on Link " +
      "Harness with `lnk agent create <name> --harness link` and chat with that one\n",
  });
});

Deno.test("lnk agent chat send to an agent that is not running says how to start it", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  assert.deepEqual(await runCli(["agent", "chat", "send", "hi"], home), {
    code: 1,
    stdout: "",
    stderr:
      'error: Cannot chat with agent "main": it is not running\n  hint: Start it with `lnk agent start`\n',
  });
});

Deno.test("lnk agent chat takes send or nothing, and send takes a message", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const wrong = await runCli(["agent", "chat", "sned", "hi"], home);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /^error: Cannot run "lnk agent chat sned": unknown command\n/);
  const empty = await runCli(["agent", "chat", "send"], home);
  assert.deepEqual(empty, {
    code: 2,
    stdout: "",
    stderr:
      "error: Cannot send an empty message\n  hint: Usage: lnk agent chat [send <text>] [--agent <name>] " +
      "[--thread <name>] [--json]\n",
  });
  assert.equal((await runCli(["agent", "chat", "send", "--thread", "no/slash", "hi"], home)).code, 2);
});

Deno.test("a refused key shows in the chat as the agent could not answer, and its words in lnk agent logs (MDL-2)", async () => {
  await using model = await serveFakeModel({ key: "the-right-key" });
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "start"], home);
  const sent = await runCli(["agent", "chat", "send", "hi"], home);
  assert.deepEqual(sent, {
    code: 1,
    stdout: "",
    stderr: "error: Your agent could not answer: the provider refused the key\n" +
      "  hint: Check the model provider's key, then send the message again\n",
  });
  const logs = await runCli(["agent", "logs"], home);
  assert.match(logs.stdout, /"providerMessage":"Incorrect API key provided"/);
  await runJson(["agent", "stop"], home);
});

Deno.test("a message over the model's context is refused with a hint, from the chat", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { name } = await runJson<{ name: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const spec = join(home.path, "Link", "Agents", name, "Config", "spec.toml");
  await Deno.writeTextFile(spec, "[model]\ncontext = 4000\n");
  await runJson(["agent", "start"], home);
  const sent = await runCli(["agent", "chat", "send", "word ".repeat(5000)], home);
  assert.equal(sent.code, 1);
  assert.match(
    sent.stderr,
    /^error: Your agent could not answer: the message is longer than the model's context/,
  );
  assert.match(sent.stderr, /hint: Send it in shorter parts/);
  assert.equal(model.requests.length, 0);
  await runJson(["agent", "stop"], home);
});
