import assert from "node:assert/strict";
import { join } from "node:path";
import { roleArgv, setLogSink } from "../../core/base/mod.ts";
import { parseRelayArgs, relayArgs, runRelayRole, serveRelay } from "../../sandbox/mod.ts";
import { echoServer } from "../support/sandbox.ts";

Deno.test("parseRelayArgs() reads back what relayArgs() writes", () => {
  const rules = [
    { kind: "tcp-to-unix", port: 3128, socket: "/a/proxy.sock" },
    { kind: "unix-to-tcp", socket: "/a/b=c.sock", port: 18789 },
  ] as const;
  assert.deepEqual(parseRelayArgs(relayArgs(rules)), rules);
  assert.throws(() => parseRelayArgs(["--tcp", "0x=/a"]), { code: "USAGE" });
  assert.throws(() => parseRelayArgs(["--udp", "1=/a"]), { code: "USAGE" });
  assert.throws(() => parseRelayArgs(["--tcp", `1=/${"x".repeat(120)}`]), { code: "SANDBOX_UNAVAILABLE" });
});

Deno.test("serveRelay() joins TCP to a unix socket and back, both directions, half-closes kept", async () => {
  await using server = echoServer();
  const dir = await Deno.makeTempDir({ prefix: "lnk-relay-" });
  try {
    const socket = join(dir, "s.sock");
    await using _out = await serveRelay({ kind: "unix-to-tcp", socket, port: server.port });
    await using into = await serveRelay({ kind: "tcp-to-unix", port: 0, socket });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: into.port! });
    await conn.write(new TextEncoder().encode("ping"));
    await conn.closeWrite();
    const answer = await new Response(conn.readable).text();
    assert.deepEqual({ answer, got: server.got, mode: (await Deno.stat(socket)).mode! & 0o777 }, {
      answer: "echo:ping",
      got: ["ping"],
      mode: 0o600,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveRelay() closes a connection whose other side cannot be reached", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-relay-" });
  try {
    await using into = await serveRelay({ kind: "tcp-to-unix", port: 0, socket: join(dir, "none.sock") });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: into.port! });
    assert.equal(await new Response(conn.readable).text(), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runRelayRole() exits 127 for a command that is not there, as a shell would", async () => {
  const lines: string[] = [];
  const restore = setLogSink((line) => void lines.push(line));
  try {
    assert.equal(await runRelayRole(["--", "/nonexistent/program"]), 127);
    assert.match(lines.join("\n"), /Cannot run the command in the sandbox/);
  } finally {
    restore();
  }
});

Deno.test("runRelayRole() runs a command that is one of Link's roles in its own process, its relays up meanwhile (PRC-13)", async () => {
  await using server = echoServer();
  const dir = await Deno.makeTempDir({ prefix: "lnk-relay-" });
  try {
    const socket = join(dir, "s.sock");
    await using _out = await serveRelay({ kind: "unix-to-tcp", socket, port: server.port });
    const asked: string[] = [];
    const roles = (words: string) => {
      asked.push(words);
      if (words !== "test role") return undefined;
      return () =>
        Promise.resolve(async (args: string[]) => {
          // The relay listens before the role runs: 127.0.0.1:<port> inside reaches the echo server.
          const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(args[1]) });
          await conn.write(new TextEncoder().encode(args[0]!));
          await conn.closeWrite();
          return (await new Response(conn.readable).text()) === "echo:ping" ? 7 : 1;
        });
    };
    const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = free.addr.port;
    free.close();
    const command = roleArgv(["test", "role", "ping", String(port)]);
    assert.equal(
      await runRelayRole(["--tcp", `${port}=${socket}`, "--", ...command], undefined, { roles }),
      7,
    );
    // A program other than Link, or the relay role itself, runs as a child.
    assert.equal(await runRelayRole(["--", "/bin/sh", "-c", "exit 3"], undefined, { roles }), 3);
    assert.equal(
      await runRelayRole(["--", ...roleArgv(["sandbox", "relay", "--", "/bin/true"])], undefined, { roles }),
      0,
    );
    assert.deepEqual(asked, ["test role"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
