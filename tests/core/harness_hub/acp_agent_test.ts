import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { sandboxedTest } from "../../support/sandboxed_agent.ts";
import { TINY_AGENT } from "./_support.ts";

/** The error a refused command printed with --json. */
async function refused(home: TempHome, args: string[]): Promise<{ code: string; message: string }> {
  const result = await runCli([...args, "--json"], home);
  assert.notEqual(result.code, 0, args.join(" "));
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
}

/** The tiny agent's command as a person types it after --acp-command. */
const COMMAND = TINY_AGENT.map((w) => (w.includes(" ") ? `"${w}"` : w)).join(" ");

sandboxedTest(
  "an agent on harness acp runs its stdio ACP agent in Link's sandbox under the hub, answering lnk agent chat send, its model through Link",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const created = await runJson<{ harness: string; acp: { command: string[] } }>(
      [
        "agent",
        "create",
        "q",
        "--harness",
        "acp",
        "--acp-command",
        COMMAND,
        "--model-url",
        model.url,
        "--model",
        "fake-model",
      ],
      home,
    );
    assert.equal(created.harness, "acp");
    assert.deepEqual(created.acp.command, TINY_AGENT, "the command is kept in the agent's settings");
    await runJson(["agent", "start", "--agent", "q"], home);
    const sent = await runCli(["agent", "chat", "send", "--agent", "q", "hello"], home);
    assert.deepEqual(sent, { code: 0, stdout: "echo(1): hello\n", stderr: "" });
    // The same thread keeps its ACP session.
    assert.equal(
      (await runCli(["agent", "chat", "send", "--agent", "q", "again"], home)).stdout,
      "echo(2): again\n",
    );
    // Its model is the agent's, reached from inside the sandbox as the hub handed it.
    model.reply("the model says hi");
    const asked = await runCli(["agent", "chat", "send", "--agent", "q", "model: are you there"], home);
    assert.equal(asked.stdout, "echo(3): model: are you there -> the model says hi\n");
    const request = (await model.nextRequest()).body as { model: string; messages: { content: string }[] };
    assert.equal(request.model, "fake-model");
    assert.equal(request.messages.at(-1)?.content, "are you there");
    await runJson(["agent", "stop", "--agent", "q"], home);
  },
);

Deno.test("lnk agent create refuses harness acp without its command, and --acp-command on another harness", async () => {
  await using home = await tempHome();
  assert.equal((await refused(home, ["agent", "create", "q", "--harness", "acp"])).code, "USAGE");
  assert.equal((await refused(home, ["agent", "create", "q", "--acp-command", "qwen --acp"])).code, "USAGE");
  const unclosed = ["agent", "create", "q", "--harness", "acp", "--acp-command", '"qwen --acp'];
  assert.equal((await refused(home, unclosed)).code, "USAGE");
  // Nothing was made.
  assert.deepEqual(await runJson(["agent", "list"], home), { agents: [] });
});

sandboxedTest(
  "an agent on harness acp whose program is not there does not start, and says which program",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    await runJson(
      [
        "agent",
        "create",
        "q",
        "--harness",
        "acp",
        "--acp-command",
        "no-such-acp-agent --acp",
        "--model-url",
        model.url,
      ],
      home,
    );
    const error = await refused(home, ["agent", "start", "--agent", "q"]);
    assert.equal(error.code, "HARNESS_MISSING");
    assert.match(error.message, /no-such-acp-agent/);
  },
);

Deno.test("an agent on harness acp started --no-sandbox runs its ACP agent under the hub as a plain child, its model called as it is", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  await runJson(
    [
      "agent",
      "create",
      "q",
      "--harness",
      "acp",
      "--acp-command",
      COMMAND,
      "--model-url",
      model.url,
      "--model",
      "fake-model",
    ],
    home,
  );
  const started = await runJson<{ sandbox: string }>([
    "agent",
    "start",
    "--agent",
    "q",
    "--no-sandbox",
    "--json",
  ], home);
  assert.equal(started.sandbox, "off");
  model.reply("plainly");
  const sent = await runCli(["agent", "chat", "send", "--agent", "q", "model: hi"], home);
  assert.equal(sent.stdout, "echo(1): model: hi -> plainly\n", sent.stderr);
  await runJson(["agent", "stop", "--agent", "q"], home);
});

Deno.test("lnk agent show --permissions names what harness acp's needs add at each start, read-only", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "q", "--harness", "acp", "--acp-command", COMMAND], home);
  const shown = await runJson<
    { harnessNeeds: { flags: string[] }; effective: { paths: { read: string[] } } }
  >(
    ["agent", "show", "--agent", "q", "--permissions", "--json"],
    home,
  );
  const script = new URL("./", import.meta.url).pathname.replace(/\/$/, "");
  assert.deepEqual(shown.harnessNeeds.flags, [`--read ${script}`]);
  assert.deepEqual(shown.effective.paths.read, [script]);
  const text = await runCli(["agent", "show", "--agent", "q", "--permissions"], home);
  assert.match(text.stdout, /from the harness's needs, at each start: --read .*harness_hub/);
});
