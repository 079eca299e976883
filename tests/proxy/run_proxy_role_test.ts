import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnRole } from "../../core/base/mod.ts";
import type { ProxyRoleInput } from "../../proxy/mod.ts";
import { fakeUpstream, rawExchange, SECRET, statusAndReason } from "../support/proxy.ts";

function startRole(input: string, args: string[] = ["--agent", "a1"]) {
  return spawnRole(["proxy", "serve", ...args], { input });
}

Deno.test("runProxyRole() reads its options on stdin, serves the socket, and stops on SIGTERM", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-proxy-role-" });
  try {
    // This role dials for real, so every target here is loopback: the upstream is a [localhost] port grant.
    await using upstream = fakeUpstream(() => new Response("local model"));
    const socket = join(dir, "proxy.sock");
    const input: ProxyRoleInput = {
      socket,
      hostPort: 18080,
      secret: SECRET.reveal(),
      policy: { hosts: ["api.openai.com"], localhostPorts: [upstream.port] },
      keys: [{
        host: "api.openai.com",
        header: "authorization",
        value: "sk-never-logged",
        placeholder: "placeholder",
      }],
    };
    const role = await startRole(`${JSON.stringify(input)}\n`);
    assert.deepEqual(role.ready, { socket });
    const request = (target: string) =>
      `GET /_link/s/${SECRET.reveal()}/${target} HTTP/1.1\r\nHost: 127.0.0.1:18080\r\nConnection: close\r\n\r\n`;
    const ok = await rawExchange(
      { transport: "unix", path: socket },
      request(`http/127.0.0.1:${upstream.port}/v1`),
    );
    assert.deepEqual([statusAndReason(ok)[0], ok.slice(ok.indexOf("\r\n\r\n") + 4)], [
      "HTTP/1.1 200 OK",
      "local model",
    ]);
    const refused = await rawExchange(
      { transport: "unix", path: socket },
      request("http/[::ffff:127.0.0.1]:22/"),
    );
    assert.deepEqual(statusAndReason(refused), ["HTTP/1.1 403 Forbidden", "address-forbidden"]);
    const status = await role.stop();
    assert.deepEqual([status.code, upstream.calls.map((c) => c.path)], [0, ["/v1"]]);
    await assert.rejects(Deno.stat(socket), Deno.errors.NotFound);
    const logs = role.stderrText().trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(logs.map((l) => [l.scope, l.msg]), [
      ["proxy", "Proxy listening"],
      ["proxy", "Proxy role ready"],
      ["proxy", "Request forwarded"],
      ["proxy", "Request refused"],
      ["proxy", "Proxy stopped"],
    ]);
    assert.ok(!role.stderrText().includes(SECRET.reveal()) && !role.stderrText().includes("sk-never-logged"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runProxyRole() listens on a port of 127.0.0.1 when given one, and says which in its ready line", async () => {
  const role = await startRole(`${JSON.stringify({ port: 0, secret: SECRET.reveal() })}\n`);
  try {
    const port = role.ready.port as number;
    const answer = await rawExchange(
      { port },
      `GET /_link/s/wrong-secret/https/example.com/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    );
    assert.deepEqual(statusAndReason(answer), ["HTTP/1.1 403 Forbidden", "secret-wrong"]);
  } finally {
    await role.stop();
  }
});

Deno.test("runProxyRole() fails before its ready line on options that are not valid", async () => {
  for (
    const input of [
      "not json\n",
      `${JSON.stringify({ secret: "short" })}\n`,
      `${JSON.stringify({ socket: "/x" })}\n`,
    ]
  ) {
    await assert.rejects(startRole(input), { name: "LinkError", code: "CONFIG_INVALID" });
  }
  await assert.rejects(startRole("{}\n", ["--bogus"]), { name: "LinkError", code: "USAGE" });
});
