/**
 * The agent's folders as the running, sandboxed Link Harness uses them (LAY-2, LAY-3, LAY-5): Home
 * and each collection at its own path, the combined view made by the tools, nothing of Agent/
 * written into Home.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { layoutOf, loadSettings } from "../../../../core/agent/mod.ts";
import { type FakeModel, serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../../support/mod.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";

/** Every path under `dir` with its content ("/" for a folder), so any new entry or change shows. */
async function snapshot(dir: string, root = dir): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      found[`${relative(root, path)}/`] = "/";
      Object.assign(found, await snapshot(path, root));
    } else found[relative(root, path)] = await Deno.readTextFile(path);
  }
  return found;
}

/** Creates and starts an agent, then has one chat in which it lists its view, reads and takes a note. */
async function startAndChat(home: TempHome, model: FakeModel, more: string[] = []) {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model", ...more],
    home,
  );
  const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
  await runJson(["agent", "start"], home);
  model.replyToolCalls([
    { name: "list_files", args: { path: "." }, id: "c1" },
    { name: "read_file", args: { path: "instructions/agent.md" }, id: "c2" },
    { name: "note_write", args: { name: "seen", text: "the owner's files" }, id: "c3" },
  ]);
  model.reply("Done.");
  const sent = await runCli(["agent", "chat", "send", "look around"], home);
  assert.deepEqual(sent, { code: 0, stdout: "Done.\n", stderr: "" });
  await model.nextRequest();
  const body = (await model.nextRequest()).body as { messages: { role: string; content: string }[] };
  const results = body.messages.filter((m) => m.role === "tool").map((m) => m.content);
  await runJson(["agent", "stop"], home);
  return { layout, results };
}

sandboxedTest(
  "an agent made with --files <repo> leaves the repo exactly as it was after a start and a chat (LAY-2, LAY-3)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const repo = join(home.path, "src", "app");
    await Deno.mkdir(join(repo, ".git"), { recursive: true });
    await Deno.mkdir(join(repo, "lib"));
    await Deno.writeTextFile(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    await Deno.writeTextFile(join(repo, "README.md"), "# app\n");
    await Deno.writeTextFile(join(repo, "lib", "mod.ts"), "export {};\n");
    const before = await snapshot(repo);
    const { layout, results } = await startAndChat(home, model, ["--files", repo]);
    assert.equal(layout.home, repo);
    const instructions = await Deno.readTextFile(join(layout.agent, "instructions", "agent.md"));
    assert.deepEqual(results, [
      // .idea/ and .vscode/ stand in while it runs, so it cannot make them (protected places); gone after.
      ".git/\n.idea/\n.vscode/\nREADME.md (6 bytes)\nchats/\ninstructions/\nlib/\nskills/",
      instructions,
      'Wrote note "seen" (17 characters)',
    ]);
    assert.deepEqual(await snapshot(repo), before);
    // The conversation and the note went to Agent/, in the agent's own folder.
    assert.equal(await Deno.readTextFile(join(layout.agent, "memory", "seen.md")), "the owner's files");
    const conversation = await snapshot(join(layout.agent, "chats", "link+main"));
    assert.equal(conversation["events/1.json"]?.includes("look around"), true);
  },
);

sandboxedTest(
  "an agent with its own Home gets no instructions/, skills/, chats/ or memory/ in it after a start and a chat (LAY-2, LAY-3)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const { layout, results } = await startAndChat(home, model);
    assert.deepEqual(results[0], "chats/\ninstructions/\nskills/");
    assert.deepEqual(await snapshot(layout.home), {});
    assert.deepEqual((await snapshot(layout.agent))["chats/link+main/"], "/");
    assert.equal(await Deno.readTextFile(join(layout.agent, "memory", "seen.md")), "the owner's files");
  },
);

sandboxedTest(
  "run's commands in Link Harness's sandbox write Home but never chats/ or its notes, which the harness writes (LAY-7)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const { id } = await runJson<{ id: string }>(
      ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
    await runJson(["agent", "start"], home);
    const w = (path: string) =>
      `(echo x >> "${path}") 2>/dev/null && echo "wrote ${path}" || echo "denied ${path}"`;
    const chats = join(layout.agent, "chats");
    const script = [
      w(join(chats, "link+main", "events", "99.json")),
      w(join(chats, "new.json")),
      w(join(layout.agent, "memory", "seen.md")),
      `rm -rf "${chats}/link+main" 2>/dev/null; ls "${chats}"`,
      w(join(layout.home, "made-by-run.txt")),
    ].join("\n");
    model.replyToolCalls([
      { name: "note_write", args: { name: "seen", text: "kept" }, id: "c1" },
      { name: "run", args: { command: ["sh", "-c", script] }, id: "c2" },
    ]);
    model.reply("Done.");
    const sent = await runCli(["agent", "chat", "send", "try"], home);
    assert.deepEqual(sent, { code: 0, stdout: "Done.\n", stderr: "" });
    await model.nextRequest();
    const body = (await model.nextRequest()).body as { messages: { role: string; content: string }[] };
    const results = body.messages.filter((m) => m.role === "tool").map((m) => m.content);
    assert.deepEqual(results, [
      'Wrote note "seen" (4 characters)',
      [
        "Exit code 0",
        "--- stdout ---",
        `denied ${join(chats, "link+main", "events", "99.json")}`,
        `denied ${join(chats, "new.json")}`,
        `denied ${join(layout.agent, "memory", "seen.md")}`,
        "link+main",
        `wrote ${join(layout.home, "made-by-run.txt")}`,
      ].join("\n"),
    ]);
    await runJson(["agent", "stop"], home);
    assert.equal(await Deno.readTextFile(join(layout.agent, "memory", "seen.md")), "kept");
    assert.equal(await Deno.readTextFile(join(layout.home, "made-by-run.txt")), "x\n");
    // The harness went on writing the conversation after run's attempts.
    const events = Object.keys(await snapshot(join(chats, "link+main", "events")));
    assert.ok(events.length >= 4, events.join(" "));
  },
);
