import assert from "node:assert/strict";
import { heldDir, holdAnswer } from "../../../connections/link/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, runLnk, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent chat send --json prints one object once the answer is whole: earlier answers, the answer, the outcome", async () => {
  await using model = await serveFakeModel({ defaultText: "Hi." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  await runJson(["agent", "start"], home);
  await holdAnswer(heldDir(home.paths, id), {
    thread: "link:main",
    text: "Reminder: water the plants.",
    at: 1,
  });
  const sent = await runLnk(["agent", "chat", "send", "--json", "hello"], home);
  assert.deepEqual({ ...sent, stdout: JSON.parse(sent.stdout) }, {
    code: 0,
    stdout: {
      agent: "main",
      thread: "link:main",
      earlier: ["Reminder: water the plants."],
      answer: "Hi.",
      outcome: "answered",
    },
    stderr: "",
  });
  await runJson(["agent", "stop"], home);
});

Deno.test("lnk agent chat send --json says a failed answer as the one JSON error, exit 1", async () => {
  await using model = await serveFakeModel({ key: "the-right-key" });
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "start"], home);
  const sent = await runCli(["agent", "chat", "send", "--json", "hi"], home);
  assert.deepEqual({ ...sent, stdout: JSON.parse(sent.stdout) }, {
    code: 1,
    stdout: {
      error: {
        code: "PROVIDER_ERROR",
        message: "Your agent could not answer: the provider refused the key",
        hint: "Check the model provider's key, then send the message again",
      },
    },
    stderr: "",
  });
  await runJson(["agent", "stop"], home);
});

Deno.test("lnk agent chat goes on after a failed answer, and exits 1 at its end since one failed", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "start"], home);
  model.replyError(401, { error: { message: "Incorrect API key provided", code: "invalid_api_key" } });
  model.reply("Two.");
  const chat = await runCli(["agent", "chat"], home, { lines: ["first", "second", ""] });
  assert.deepEqual(chat, {
    code: 1,
    stdout: "Two.\n",
    stderr: 'Chatting with "main" on link:main. An empty line ends the chat.\n' +
      "error: Your agent could not answer: the provider refused the key\n" +
      "  hint: Check the model provider's key, then send the message again\n",
  });
  await runJson(["agent", "stop"], home);
});

Deno.test("lnk agent chat --json without send is refused: --json is for one message", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--harness", "mini"], home);
  assert.deepEqual(await runCli(["agent", "chat", "--json"], home), {
    code: 2,
    stdout: JSON.stringify({
      error: {
        code: "USAGE",
        message: "Cannot chat with --json: it is for one message",
        hint: 'Send one with `lnk agent chat send --json "<text>"`',
      },
    }) + "\n",
    stderr: "",
  });
});
