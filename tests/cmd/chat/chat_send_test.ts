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

Deno.test("a tool-using turn from the terminal: the agent's tool writes in its Home, the answer streams (LOC-2)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { name } = await runJson<{ name: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  await runJson(["agent", "start"], home);
  model.replyToolCall("write_file", { path: "note.txt", content: "remember the milk" }, { id: "call-1" });
  model.reply("I wrote it down in note.txt.");
  const sent = await runCli(["agent", "chat", "send", "note that I need milk"], home);
  assert.deepEqual(sent, { code: 0, stdout: "I wrote it down in note.txt.\n", stderr: "" });
  const note = await Deno.readTextFile(`${home.path}/Link/Agents/${name}/Home/note.txt`);
  assert.equal(note, "remember the milk");
  const second = model.requests[1]!.body as { messages: { role: string; tool_call_id?: string }[] };
  assert.deepEqual(second.messages.at(-1)?.tool_call_id, "call-1");
  await runJson(["agent", "stop"], home);
});
