import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import {
  askEndpoint,
  createAgent,
  howStarted,
  runStdout,
  sandboxedTest,
  toolResult,
} from "../../../support/sandboxed_agent.ts";

sandboxedTest(
  "lnk agent start runs Link Harness in its sandbox behind its proxy, and chat send gets the answer streamed (SBX-1, SBX-7)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    const status = await runJson<{ state: string; sandbox: string }>(["agent", "start", "--json"], home);
    assert.deepEqual([status.state, status.sandbox], ["running", "on"]);
    model.reply("Hello from ", { chunks: ["Hello ", "from ", "your ", "sandbox."] });
    const sent = await runCli(["agent", "chat", "send", "hi"], home);
    assert.deepEqual(sent, { code: 0, stdout: "Hello from your sandbox.\n", stderr: "" });
    // The fake model on this machine's loopback was reached through the relay, not the proxy.
    const request = await model.nextRequest();
    assert.equal(request.path, "/v1/chat/completions");
    assert.deepEqual(await howStarted(home, agent.id), [{ harness: "link", sandboxed: true, proxied: true }]);
    await runJson(["agent", "stop"], home);
  },
);

sandboxedTest(
  "from inside the running agent's sandbox the harness reads no ~/.lnk, key file or Config/, and holds no key or caller variable (SBX-21, GRT-8, SBX-16)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    home.env.set("OPENAI_API_KEY", "sk-caller-key-0123456789");
    home.env.set("CALLER_SECRET", "caller-value");
    const agent = await createAgent(home, model);
    await runJson(["agent", "start"], home);
    const lnk = home.paths.lnk;
    const places = [
      lnk,
      home.paths.keyFile(agent.id),
      home.paths.settingsToml(agent.id),
      home.paths.machineToml,
      agent.layout.sandboxToml,
      agent.layout.specToml,
      join(home.path, ".config"),
    ];
    const script =
      places.map((p) => `(ls "${p}" && cat "${p}") >/dev/null 2>&1 && echo "read ${p}" || echo "denied ${p}"`)
        .join("\n") +
      "\necho ---\nenv | cut -d= -f1 | sort\necho ---\nenv | grep -c -e sk-caller -e caller-value";
    model.replyToolCall("run", { command: ["sh", "-c", script] });
    model.reply("Checked.");
    const sent = await runCli(["agent", "chat", "send", "look around"], home);
    assert.equal(sent.code, 0, sent.stderr);
    await model.nextRequest();
    const [denials, names, leaks] = runStdout(toolResult(await model.nextRequest())).split("\n---\n");
    assert.equal(denials, places.map((p) => `denied ${p}`).join("\n"));
    assert.deepEqual(names!.split("\n").filter((n) => n !== "PWD" && n !== "SHLVL"), [
      "ALL_PROXY",
      "DENO_DIR",
      "DENO_NO_UPDATE_CHECK",
      "HOME",
      "HTTPS_PROXY",
      "HTTP_PROXY",
      "LANG",
      "NO_PROXY",
      "PATH",
      "TMPDIR",
      "all_proxy",
      "http_proxy",
      "https_proxy",
      "no_proxy",
    ]);
    assert.equal(leaks, "0");
    await runJson(["agent", "stop"], home);
  },
);

sandboxedTest("lnk agent start runs the mini harness sandboxed the same way", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createAgent(home, model, "mini");
  await runJson(["agent", "start"], home);
  // Through its endpoint socket as the door relays to it (chat send's link connection is Link Harness's).
  assert.equal(await askEndpoint(home, agent, "hello"), "mini: hello");
  assert.deepEqual(await howStarted(home, agent.id), [{ harness: "mini", sandboxed: true, proxied: true }]);
  await runJson(["agent", "stop"], home);
});
