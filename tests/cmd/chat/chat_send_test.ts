import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, runLnk, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent chat send streams the answer of a running agent, on link:main (LOC-1, LOC-2)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "start"], home);
  model.reply("Hello from your agent.");
  const sent = await runCli(["agent", "chat", "send", "hi", "there"], home);
  assert.deepEqual(sent, { code: 0, stdout: "Hello from your agent.\n", stderr: "" });
  const request = await model.nextRequest();
  const body = request.body as { messages: { role: string; content: string }[] };
  assert.deepEqual(body.messages.at(-1), { role: "user", content: "hi there" });
  await runJson(["agent", "stop"], home);
});

Deno.test("lnk agent chat send as a child process prints the answer (LOC-2)", async () => {
  await using model = await serveFakeModel({ defaultText: "Answered." });
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "start"], home);
  const sent = await runLnk(["agent", "chat", "send", "hello"], home);
  assert.deepEqual(sent, { code: 0, stdout: "Answered.\n", stderr: "" });
  await runJson(["agent", "stop"], home);
});
