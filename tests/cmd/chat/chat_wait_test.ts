import assert from "node:assert/strict";
import { join } from "node:path";
import { holdAnswer } from "../../../connections/link/mod.ts";
import { heldDir } from "../../../connections/link/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";

async function startAgent(home: TempHome, modelUrl: string): Promise<{ id: string; name: string }> {
  const agent = await runJson<{ id: string; name: string }>(
    ["agent", "create", "--model-url", modelUrl, "--model", "fake-model"],
    home,
  );
  await runJson(["agent", "start"], home);
  return agent;
}

/** Resolves once the conversation has event `n`: a message has landed. */
async function eventWritten(home: TempHome, name: string, n: number): Promise<void> {
  const dir = join(home.path, "Link", "Agents", name, "Agent", "chats", "link+main", "events");
  using watcher = Deno.watchFs(dir);
  try {
    await Deno.stat(join(dir, `${n}.json`));
    return;
  } catch { /* not yet: watch for it */ }
  for await (const change of watcher) if (change.paths.some((p) => p.endsWith(`/${n}.json`))) return;
}

/** Resolves once the harness keeps an answer nobody waited for. */
async function keptWritten(home: TempHome, name: string): Promise<void> {
  const dir = join(home.path, "Link", "Agents", name, "Agent", "chats", ".kept");
  await Deno.mkdir(dir, { recursive: true });
  using watcher = Deno.watchFs(dir);
  if ((await Array.fromAsync(Deno.readDir(dir))).some((e) => e.name.endsWith(".json"))) return;
  for await (const change of watcher) if (change.paths.some((p) => p.endsWith(".json"))) return;
}

Deno.test("Ctrl-C stops only the wait; the next send joins the turn still running and prints its answer (LOC-6)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await startAgent(home, model.url);
  const held = model.reply("Still working on the first.", { hold: true });
  model.reply("Both are done.");
  const ctrlC = new AbortController();
  const first = runCli(["agent", "chat", "send", "first"], home, { signal: ctrlC.signal });
  await held.taken;
  ctrlC.abort();
  assert.deepEqual(await first, {
    code: 0,
    stdout: "",
    stderr: "Stopped waiting: your agent finishes its answer, which comes with your next message\n",
  });
  const second = runCli(["agent", "chat", "send", "second"], home);
  await eventWritten(home, agent.name, 3);
  held.release();
  assert.deepEqual(await second, {
    code: 0,
    stdout: "Still working on the first.\n\nBoth are done.\n",
    stderr: "",
  });
  // Printed once: the next send has nothing from before.
  model.reply("Third.");
  assert.deepEqual(await runCli(["agent", "chat", "send", "third"], home), {
    code: 0,
    stdout: "Third.\n",
    stderr: "",
  });
  await runJson(["agent", "stop"], home);
});

Deno.test("an answer finished after Ctrl-C prints first at the next send, once, then the new answer (LOC-5, LOC-6)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await startAgent(home, model.url);
  const held = model.reply("The first answer.", { hold: true });
  const ctrlC = new AbortController();
  const first = runCli(["agent", "chat", "send", "first"], home, { signal: ctrlC.signal });
  await held.taken;
  ctrlC.abort();
  assert.equal((await first).code, 0);
  held.release();
  await keptWritten(home, agent.name);
  model.reply("The second answer.");
  const second = await runCli(["agent", "chat", "send", "second"], home);
  assert.deepEqual(second, { code: 0, stdout: "The first answer.\n\nThe second answer.\n", stderr: "" });
  await runJson(["agent", "stop"], home);
});

Deno.test("an answer the bridge holds for a link thread prints at the next chat on that thread, once (LOC-5)", async () => {
  await using model = await serveFakeModel({ defaultText: "Hi." });
  await using home = await tempHome();
  const agent = await startAgent(home, model.url);
  await holdAnswer(heldDir(home.paths, agent.id), {
    thread: "link:main",
    text: "Reminder: water the plants.",
    at: 1,
  });
  await holdAnswer(heldDir(home.paths, agent.id), { thread: "link:work", text: "Not for main.", at: 2 });
  assert.deepEqual(await runCli(["agent", "chat", "send", "hello"], home), {
    code: 0,
    stdout: "Reminder: water the plants.\n\nHi.\n",
    stderr: "",
  });
  assert.deepEqual(await runCli(["agent", "chat", "send", "hello"], home), {
    code: 0,
    stdout: "Hi.\n",
    stderr: "",
  });
  await runJson(["agent", "stop"], home);
});

Deno.test("lnk agent chat with no text sends each line typed, on the thread named", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await startAgent(home, model.url);
  model.reply("One.");
  model.reply("Two.");
  const chat = await runCli(["agent", "chat", "--thread", "work"], home, { lines: ["first", "second", ""] });
  assert.deepEqual(chat, {
    code: 0,
    stdout: "One.\nTwo.\n",
    stderr: 'Chatting with "main" on link:work. An empty line ends the chat.\n',
  });
  const events = join(home.path, "Link", "Agents", agent.name, "Agent", "chats", "link+work", "events");
  assert.equal((await Array.fromAsync(Deno.readDir(events))).length, 6);
  await runJson(["agent", "stop"], home);
});
