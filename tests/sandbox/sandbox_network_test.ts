import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { serveRelay } from "../../sandbox/mod.ts";
import { agentFixture, echoServer, runPlan, sandboxTest, TALK } from "../support/sandbox.ts";

sandboxTest("sandbox: no route to the internet, 1.1.1.1:443 fails (SBX-7)", async () => {
  await using fx = await agentFixture();
  const r = await fx.sh(
    `bash -c '(exec 3<>/dev/tcp/1.1.1.1/443) 2>/dev/null && echo open || echo unreachable'`,
  );
  assert.deepEqual(r.stdout, "unreachable\n");
});

sandboxTest("sandbox: this machine's loopback services are out of reach (SBX-7, SBX-8)", async () => {
  await using fx = await agentFixture();
  await using server = await echoServer();
  const r = await fx.sh(`bash -c '${TALK(server.port)}'`);
  assert.deepEqual({ stdout: r.stdout, got: server.got }, { stdout: "refused\n", got: [] });
});

sandboxTest(
  "sandbox: a relay reaches a loopback server outside only through its socket (SBX-7)",
  async () => {
    await using fx = await agentFixture();
    await using server = await echoServer();
    const socket = join(fx.netDir, "svc.sock");
    await Deno.mkdir(fx.netDir, { recursive: true });
    await using _outside = await serveRelay({ kind: "unix-to-tcp", socket, port: server.port });
    const inside = server.port === 4567 ? 4568 : 4567;
    const plan = await fx.plan(["bash", "-c", `${TALK(inside)}; ${TALK(server.port)}`], {
      relays: [{ kind: "tcp-to-unix", port: inside, socket }],
    });
    const r = await runPlan(plan);
    assert.deepEqual({ stdout: r.stdout, got: server.got }, {
      stdout: "echo:hi\n\nrefused\n",
      got: ["hi\n"],
    });
  },
);

sandboxTest(
  "sandbox: the outside reaches a port inside through a unix-to-tcp relay (the endpoint)",
  async () => {
    await using fx = await agentFixture();
    const socket = join(fx.netDir, "endpoint.sock");
    const serve = `const l = Deno.listen({ hostname: "127.0.0.1", port: 18789 }); console.log("listening");
    const c = await l.accept(); const b = new Uint8Array(64); const n = await c.read(b);
    await c.write(new TextEncoder().encode("inside:" + new TextDecoder().decode(b.subarray(0, n)))); c.close();`;
    const plan = await fx.plan(["deno", "eval", serve], {
      relays: [{ kind: "unix-to-tcp", socket, port: 18789 }],
    });
    const { runSandboxed } = await import("../../sandbox/mod.ts");
    await using sandbox = await runSandboxed(plan, { stdin: "null", stdout: "piped", stderr: "log" });
    const lines = sandbox.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await lines.read()).value, "listening\n");
    const conn = await Deno.connect({ transport: "unix", path: socket });
    await conn.write(new TextEncoder().encode("ping"));
    const buf = new Uint8Array(64);
    const n = await conn.read(buf);
    conn.close();
    assert.equal(new TextDecoder().decode(buf.subarray(0, n ?? 0)), "inside:ping");
    assert.equal((await sandbox.status).code, 0);
    await lines.cancel();
  },
);

sandboxTest("sandbox: network mode host gives the network as it is (SBX-9)", async () => {
  await using fx = await agentFixture();
  await using server = await echoServer();
  const r = await fx.sh(`bash -c '${TALK(server.port)}'`, { spec: '[network]\nmode = "host"\n' });
  assert.deepEqual({ stdout: r.stdout, got: server.got }, { stdout: "echo:hi\n\n", got: ["hi\n"] });
});

sandboxTest("runSandboxed() passes no inherited descriptor, to the program or its pid 1", async () => {
  const home = await Deno.makeTempDir({ prefix: "lnk-fd-" });
  try {
    const entry = fileURLToPath(new URL("./_fd_child.ts", import.meta.url));
    const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
    const out = await new Deno.Command("bash", {
      args: [
        "-c",
        `exec 7</etc/hostname; exec "$0" run -A --cached-only --config "$1" "$2" "$3"`,
        Deno.execPath(),
        config,
        entry,
        home,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    // The program holds stdin, stdout and stderr (pipes: nothing of the caller's); bubblewrap's pid 1
    // those and its own eventfd.
    assert.deepEqual({ code: out.code, text }, {
      code: 0,
      text:
        "outside-has-7=yes\n0 pipe:\n1 pipe:\n2 pipe:\n---\n0 pipe:\n1 pipe:\n2 pipe:\n4 anon_inode:[eventfd]\n",
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

sandboxTest("runSandboxed() stop() sends the program SIGTERM inside and returns its exit", async () => {
  await using fx = await agentFixture();
  const { runSandboxed } = await import("../../sandbox/mod.ts");
  const plan = await fx.plan([
    "/bin/sh",
    "-c",
    "trap 'echo term; exit 3' TERM; echo ready; sleep 1000 & wait",
  ]);
  const sandbox = await runSandboxed(plan, { stdin: "null", stdout: "piped", stderr: "log" });
  const lines = sandbox.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await lines.read()).value, "ready\n");
  const status = await sandbox.stop();
  assert.equal((await lines.read()).value, "term\n");
  assert.equal(status.code, 3);
  await lines.cancel();
});
