import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { echoServer } from "../../../support/sandbox.ts";
import { createAgent, runStdout, sandboxedTest, toolResult } from "../../../support/sandboxed_agent.ts";

/** A port free on this machine's loopback now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/**
 * A program the harness's run tool starts: it listens on 127.0.0.1:<port>, says so, and leaves
 * a child answering one connection with "inside" (closed with the sandbox, or after that one).
 */
function listener(port: number): string {
  return `import os, socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", ${port}))
s.listen(1)
if os.fork() == 0:
    for fd in (0, 1, 2):
        os.close(fd)
    c, _ = s.accept()
    c.sendall(b"inside")
    c.close()
    os._exit(0)
print("listening")
`;
}

/** Starts the agent with `flags`, has its harness open `port`, and says what this machine's loopback finds there. */
async function openedInside(flags: string[]): Promise<string> {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  await createAgent(home, model);
  await runJson(["agent", "start", ...flags], home);
  const port = freePort();
  model.replyToolCall("run", { command: ["python3", "-c", listener(port)] });
  model.reply("Listening.");
  const sent = await runCli(["agent", "chat", "send", "open a port"], home);
  assert.equal(sent.code, 0, sent.stderr);
  await model.nextRequest();
  assert.equal(runStdout(toolResult(await model.nextRequest())), "listening");
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const text = await new Response(conn.readable).text();
    return `reached: ${text}`;
  } catch (err) {
    return err instanceof Deno.errors.ConnectionRefused ? "refused" : String(err);
  } finally {
    await runJson(["agent", "stop"], home);
  }
}

sandboxedTest(
  "a port the sandboxed harness opens stays in its sandbox's network, unreachable from this machine's loopback (GRT-23)",
  async () => {
    assert.equal(await openedInside([]), "refused");
  },
);

Deno.test("a port the harness opens with --no-sandbox (proxied = false) is on this machine's loopback (GRT-23)", async () => {
  assert.equal(await openedInside(["--no-sandbox"]), "reached: inside");
});

sandboxedTest(
  "a port of this machine granted with lnk agent allow --port is relayed into the harness's sandbox, and no other (GRT-14)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    await using granted = echoServer();
    await using other = echoServer();
    await createAgent(home, model);
    assert.equal((await runCli(["agent", "allow", "--port", String(granted.port)], home)).code, 0);
    await runJson(["agent", "start"], home);
    const talk = (port: number) =>
      `try:\n    c = socket.create_connection(("127.0.0.1", ${port}))\n    c.sendall(b"hi")\n` +
      `    print(c.recv(100).decode())\nexcept OSError:\n    print("refused")\n`;
    model.replyToolCall("run", {
      command: ["python3", "-c", `import socket\n${talk(granted.port)}${talk(other.port)}`],
    });
    model.reply("Talked.");
    assert.equal((await runCli(["agent", "chat", "send", "talk"], home)).code, 0);
    await model.nextRequest();
    assert.equal(runStdout(toolResult(await model.nextRequest())), "echo:hi\nrefused");
    assert.deepEqual([granted.got, other.got], [["hi"], []]);
    await runJson(["agent", "stop"], home);
  },
);
