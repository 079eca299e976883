import assert from "node:assert/strict";
import { join } from "node:path";
import { LinkPaths } from "../../core/base/mod.ts";
import { INSIDE_PROXY_PORT, sandboxRun } from "../../sandbox/mod.ts";
import { sandbox } from "../../cmd/sandbox/mod.ts";
import type { Command, Io } from "../../cmd/mod.ts";
import { RELAY_LAUNCHER, sandboxTest } from "../support/sandbox.ts";

/** A fake upstream web server on loopback, recording the paths asked. */
function fakeUpstream() {
  const asked: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    asked.push(new URL(req.url).pathname);
    return new Response("hello from upstream");
  });
  return { asked, port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

async function tempDir(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

sandboxTest(
  "sandboxRun() returns the program's exit code and leaves no home or socket folder behind",
  async () => {
    await using home = await tempDir("lnk-run-");
    const paths = new LinkPaths(home.path);
    const code = await sandboxRun({ paths, command: ["/bin/sh", "-c", "exit 7"], launcher: RELAY_LAUNCHER });
    assert.equal(code, 7);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(paths.netRoot)), []);
  },
);

sandboxTest(
  "sandboxRun() reaches the internet only through its own proxy, named in HTTP_PROXY (SBX-7, SBX-8)",
  async () => {
    await using home = await tempDir("lnk-run-");
    await using out = await tempDir("lnk-out-");
    await using upstream = fakeUpstream();
    const dialled: [string, number][] = [];
    const script = `
    const env = Object.keys(Deno.env.toObject()).filter((k) => /proxy/i.test(k)).sort();
    const url = new URL(Deno.env.get("HTTP_PROXY"));
    const text = await (await fetch("http://example.com/hello")).text();
    const direct = await Deno.connect({ hostname: "127.0.0.1", port: ${upstream.port} }).then(() => "open", () => "refused");
    await Deno.writeTextFile("${out.path}/result.json", JSON.stringify({ env, at: url.host, text, direct }));`;
    const code = await sandboxRun({
      paths: new LinkPaths(home.path),
      grants: { write: [out.path] },
      command: ["deno", "eval", script],
      launcher: RELAY_LAUNCHER,
      proxy: {
        resolve: (name) => Promise.resolve(name === "example.com" ? ["93.184.216.34"] : []),
        dial: (address, port) => {
          dialled.push([address, port]);
          return Deno.connect({ hostname: "127.0.0.1", port: upstream.port });
        },
        localNetworks: [],
        machineNames: [],
      },
    });
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(out.path, "result.json"))), {
      env: [
        "ALL_PROXY",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
        "all_proxy",
        "http_proxy",
        "https_proxy",
        "no_proxy",
      ],
      at: `127.0.0.1:${INSIDE_PROXY_PORT}`,
      text: "hello from upstream",
      direct: "refused",
    });
    assert.deepEqual({ dialled, asked: upstream.asked }, {
      dialled: [["93.184.216.34", 80]],
      asked: ["/hello"],
    });
  },
);

function testIo(home: string): Io & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    env: { get: () => undefined, toObject: () => ({}) },
    home,
    isTerminal: false,
    signal: new AbortController().signal,
    print: (v) => void out.push(String(v)),
    write: (t) => void out.push(t),
    note: (t) => void out.push(t),
    ask: () => Promise.resolve(undefined),
    readLine: () => Promise.resolve(undefined),
  };
}

sandboxTest("lnk sandbox run --spec <file> -- <command> exits with the program's code (GRT-4)", async () => {
  await using home = await tempDir("lnk-cmd-");
  const spec = join(home.path, "sandbox.toml");
  await Deno.writeTextFile(spec, "[internet]\nhosts = []\n");
  const run = sandbox.commands.run as Command;
  // No relay is needed without [internet] or ports, so this runs before `lnk sandbox` is wired into main.ts.
  const argv = ["--spec", spec, "--read", home.path, "--", "/bin/sh", "-c", `test -f "${spec}" && exit 3`];
  assert.equal(await run.run(argv, testIo(home.path)), 3);
});

Deno.test("lnk sandbox run refuses no command, and a spec file that is not there", async () => {
  await using home = await tempDir("lnk-cmd-");
  const run = sandbox.commands.run as Command;
  await assert.rejects(run.run(["--host", "example.com"], testIo(home.path)), { code: "USAGE" });
  await assert.rejects(run.run(["--spec", join(home.path, "none.toml"), "--", "true"], testIo(home.path)), {
    code: "CONFIG_INVALID",
  });
});
