import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { echoServer } from "../../../support/sandbox.ts";
import { serviceLog, waitForLog } from "../../../support/service_log.ts";
import { createAgent, runStdout, sandboxedTest, toolResult } from "../../../support/sandboxed_agent.ts";

sandboxedTest(
  "a port granted while the agent sleeps is relayed in at its next wake: its bridge prepared the start again at the change (PRC-13, GRT-14)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    await using granted = echoServer();
    const agent = await createAgent(home, model);
    const spec = agent.layout.specToml;
    await Deno.writeTextFile(spec, (await Deno.readTextFile(spec)).replace('"5m"', '"2s"'));
    await runJson(["agent", "start"], home);
    const bridgeLog = serviceLog(home, "bridge", agent.id);
    await waitForLog(bridgeLog, (e) => e.msg === "Agent asleep");
    assert.equal((await runCli(["agent", "allow", "--port", String(granted.port)], home)).code, 0);
    // Prepared while it sleeps, not at the wake.
    await waitForLog(bridgeLog, (e) => e.msg === "The agent's start is prepared again");
    const talk = `import socket\nc = socket.create_connection(("127.0.0.1", ${granted.port}))\n` +
      `c.sendall(b"hi")\nprint(c.recv(100).decode())\n`;
    model.replyToolCall("run", { command: ["python3", "-c", talk] });
    model.reply("Talked.");
    const sent = await runCli(["agent", "chat", "send", "talk"], home);
    assert.equal(sent.code, 0, sent.stderr);
    await model.nextRequest();
    assert.equal(runStdout(toolResult(await model.nextRequest())), "echo:hi");
    assert.deepEqual(granted.got, ["hi"]);
    await runJson(["agent", "stop"], home);
    // Stopped with its bridge: no record of a harness is left for status to read.
    await assert.rejects(
      Deno.stat(join(home.paths.run, `lnk-harness-${agent.id}.json`)),
      Deno.errors.NotFound,
    );
  },
);
