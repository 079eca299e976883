import assert from "node:assert/strict";
import { join } from "node:path";
import { updateSettings } from "../../../../core/agent/mod.ts";
import * as grants from "../../../../core/agent/grants/mod.ts";
import { Secret } from "../../../../core/base/mod.ts";
import { type ByteConn, serveProxy } from "../../../../proxy/mod.ts";
import { INSIDE_PROXY_PORT } from "../../../../sandbox/mod.ts";
import { tempHome } from "../../../support/mod.ts";
import { basicAuth, fakeUpstream, rawExchange } from "../../../support/proxy.ts";
import {
  contextOf,
  HAS_OPENSSL,
  newAgent,
  NO_BWRAP,
  RELAY_LAUNCHER,
  sandboxTest,
  testCertificates,
} from "./_support.ts";

async function outDir(): Promise<
  { path: string; result(): Promise<Record<string, unknown>> } & AsyncDisposable
> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-out-" }));
  return {
    path,
    result: async () => JSON.parse(await Deno.readTextFile(join(path, "result.json"))),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** `deno eval` of a script inside, by the path of this Deno (mounted read-only in every sandbox). */
function denoEval(script: string): string[] {
  return [Deno.execPath(), "eval", script];
}

sandboxTest(
  "harnessRun() runs a command under the agent's grants with a fresh proxy of its own, agent stopped (SBX-6)",
  async () => {
    await using home = await tempHome();
    await using out = await outDir();
    await using upstream = fakeUpstream();
    const agent = await newAgent(home);
    const ctx = contextOf(home);
    await grants.changeGrants(ctx, agent, { host: ["*"] }, "deny");
    await grants.changeGrants(ctx, agent, { host: ["example.com"], write: [out.path] }, "allow");
    const dialled: [string, number][] = [];
    const code = await grants.harnessRun(ctx, agent, {
      command: denoEval(`
      const proxy = new URL(Deno.env.get("HTTP_PROXY"));
      const text = await (await fetch("http://example.com/hello")).text();
      const other = await fetch("http://other.example/");
      await other.body?.cancel();
      await Deno.writeTextFile("${out.path}/result.json", JSON.stringify({
        at: proxy.host, text, other: [other.status, other.headers.get("link-refused")], home: Deno.env.get("HOME"),
      }));
      Deno.exit(7);`),
      stdin: "null",
      launcher: RELAY_LAUNCHER,
      modelCandidates: [],
      proxy: {
        resolve: (name) => Promise.resolve(name === "example.com" ? ["93.184.216.34"] : ["93.184.216.35"]),
        dial: (address, port) => {
          dialled.push([address, port]);
          return Deno.connect({ hostname: "127.0.0.1", port: upstream.port });
        },
      },
    });
    assert.equal(code, 7);
    assert.deepEqual(await out.result(), {
      at: `127.0.0.1:${INSIDE_PROXY_PORT}`,
      text: "hello",
      other: [403, "host-not-allowed"],
      home: grants.harnessHomeOf(home.paths, agent),
    });
    assert.deepEqual([dialled, upstream.calls.map((c) => c.path)], [[["93.184.216.34", 80]], ["/hello"]]);
    // Its socket folder is gone; the agent's own was never made.
    assert.deepEqual(await Array.fromAsync(Deno.readDir(home.paths.netRoot)), []);
  },
);

sandboxTest(
  "harnessRun() leaves a running agent's proxy alone: same secret, same socket, still answering (SBX-6)",
  async () => {
    await using home = await tempHome();
    await using out = await outDir();
    await using upstream = fakeUpstream();
    const agent = await newAgent(home);
    const ctx = contextOf(home);
    await grants.changeGrants(ctx, agent, { write: [out.path] }, "allow");
    // The running agent's proxy, where its sandbox reaches it.
    const agentSecret = new Secret("the-running-agents-secret-0123456789");
    const socket = join(home.paths.net(agent.id), "proxy.sock");
    const dial = () => Deno.connect({ hostname: "127.0.0.1", port: upstream.port }) as Promise<ByteConn>;
    const resolve = () => Promise.resolve(["93.184.216.34"]);
    await using _agentProxy = await serveProxy({ path: socket, secret: agentSecret, dial, resolve });
    const before = await Deno.lstat(socket);
    const code = await grants.harnessRun(ctx, agent, {
      command: denoEval(`
      const proxy = new URL(Deno.env.get("HTTP_PROXY"));
      const seen = await Array.fromAsync(Deno.readDir("${home.paths.netRoot}")).catch((e) => e.name);
      await Deno.writeTextFile("${out.path}/result.json", JSON.stringify({ password: proxy.password, seen }));`),
      stdin: "null",
      launcher: RELAY_LAUNCHER,
      modelCandidates: [],
      proxy: { dial, resolve },
    });
    assert.equal(code, 0);
    const inside = await out.result();
    assert.notEqual(decodeURIComponent(String(inside.password)), agentSecret.reveal());
    assert.equal((inside.seen as unknown[]).length, 1, "it sees its own socket folder, not the agent's");
    const after = await Deno.lstat(socket);
    assert.deepEqual([after.ino, after.mtime], [before.ino, before.mtime]);
    const answer = await rawExchange(
      { transport: "unix", path: socket },
      `GET http://example.com/still HTTP/1.1\r\nHost: example.com\r\nProxy-Authorization: ${
        basicAuth(agentSecret.reveal())
      }\r\nConnection: close\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.deepEqual(upstream.calls.map((c) => c.path), ["/still"]);
  },
);

Deno.test({
  name: `harnessRun() keeps the model key out of the sandbox; the proxy adds it over TLS (SBX-16)${
    HAS_OPENSSL ? "" : " (ignored: needs openssl to make a certificate)"
  }`,
  ignore: NO_BWRAP !== undefined || !HAS_OPENSSL,
}, async () => {
  await using home = await tempHome();
  await using out = await outDir();
  const { ca, cert, key } = await testCertificates("api.openai.com");
  const seen: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, cert, key, onListen() {} }, (req) => {
    seen.push(`${new URL(req.url).pathname} ${req.headers.get("authorization")}`);
    return new Response("models over tls");
  });
  const agent = await newAgent(home, "main", ["--model", "openai/gpt-4.1-nano"]);
  home.env.set("OPENAI_API_KEY", "sk-real-never-inside");
  const ctx = contextOf(home);
  await grants.changeGrants(ctx, agent, { write: [out.path] }, "allow");
  const code = await grants.harnessRun(ctx, agent, {
    command: denoEval(`
      const env = Deno.env.toObject();
      const secret = new URL(env.HTTP_PROXY).password;
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: ${INSIDE_PROXY_PORT} });
      await conn.write(new TextEncoder().encode(
        "GET /_link/s/" + secret + "/https/api.openai.com/v1/models HTTP/1.1\\r\\nHost: 127.0.0.1:${INSIDE_PROXY_PORT}\\r\\n" +
        "Authorization: Bearer " + env.OPENAI_API_KEY + "\\r\\nConnection: close\\r\\n\\r\\n"));
      const answer = await new Response(conn.readable).text();
      await Deno.writeTextFile("${out.path}/result.json", JSON.stringify({
        key: env.OPENAI_API_KEY,
        leaked: Object.values(env).some((v) => v.includes("sk-real")),
        answer: answer.split("\\r\\n")[0] + " " + answer.slice(answer.indexOf("\\r\\n\\r\\n") + 4),
      }));`),
    stdin: "null",
    launcher: RELAY_LAUNCHER,
    modelCandidates: [],
    proxy: {
      resolve: (name) => Promise.resolve(name === "api.openai.com" ? ["104.18.7.192"] : []),
      dial: () => Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }),
      startTls: (conn, hostname) => Deno.startTls(conn as Deno.TcpConn, { hostname, caCerts: [ca] }),
    },
  });
  assert.equal(code, 0);
  assert.deepEqual(await out.result(), {
    key: "link-placeholder",
    leaked: false,
    answer: "HTTP/1.1 200 OK models over tls",
  });
  assert.deepEqual(seen, ["/v1/models Bearer sk-real-never-inside"]);
});

sandboxTest(
  "harnessRun() hands a harness that holds its key the key itself, and the proxy adds none (SBX-17)",
  async () => {
    await using home = await tempHome();
    await using out = await outDir();
    const agent = await newAgent(home, "main", ["--harness", "mini", "--model", "deepseek-chat"]);
    home.env.set("DEEPSEEK_API_KEY", "sk-held-by-harness");
    const ctx = contextOf(home);
    await grants.changeGrants(ctx, agent, { write: [out.path] }, "allow");
    const run = (settings = agent) =>
      grants.harnessRun(ctx, settings, {
        command: denoEval(`await Deno.writeTextFile("${out.path}/result.json",
        JSON.stringify({ key: Deno.env.get("DEEPSEEK_API_KEY") }));`),
        stdin: "null",
        launcher: RELAY_LAUNCHER,
        modelCandidates: [],
      });
    assert.equal(await run(), 0);
    assert.deepEqual(await out.result(), { key: "sk-held-by-harness" });
    // Wired by `lnk agent secret wire`, the same harness gets the placeholder.
    const wired = await updateSettings(home.paths, agent.id, (s) => ({ ...s, secrets: { wire: true } }));
    assert.equal(await run(wired), 0);
    assert.deepEqual(await out.result(), { key: "link-placeholder" });
  },
);

Deno.test("harnessRun() refuses an agent whose sandbox is off: there is no policy to run under", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  await assert.rejects(
    grants.harnessRun(contextOf(home), { ...agent, sandbox: { enabled: false } }, { command: ["true"] }),
    { name: "LinkError", code: "SANDBOX_REFUSED" },
  );
});
