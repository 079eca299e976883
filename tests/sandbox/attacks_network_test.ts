/**
 * The attack suite, network: each test one attempt from inside a real sandbox at a way out that
 * is not its proxy (SBX-7, SBX-8): the internet, this machine's loopback and addresses, abstract
 * unix sockets (X11's among them), DNS; and at the proxy itself without its secret or past its grants.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LinkPaths } from "../../core/base/mod.ts";
import { sandboxRun } from "../../sandbox/mod.ts";
import { agentFixture, attack, echoServer, RELAY_LAUNCHER, sandboxTest, TALK } from "../support/sandbox.ts";

const tcp = (host: string, port: number) =>
  `bash -c '(exec 3<>/dev/tcp/${host}/${port}) 2>/dev/null && echo open || echo unreachable'`;

attack("connect to 1.1.1.1:443, ignoring the proxy variables", () => tcp("1.1.1.1", 443), "unreachable\n");

attack(
  "send a DNS query over UDP to 8.8.8.8",
  () => "bash -c '(echo x > /dev/udp/8.8.8.8/53) 2>/dev/null && echo sent || echo unreachable'",
  "unreachable\n",
);

attack("resolve a name", () => "getent hosts example.com || echo no-answer", "no-answer\n");

attack("connect to a relayed port the spec does not name", () => tcp("127.0.0.1", 5432), "unreachable\n");

sandboxTest("attack: connect to a loopback service of this machine (SBX-8)", async () => {
  await using fx = await agentFixture();
  await using server = echoServer();
  const r = await fx.sh(`bash -c '${TALK(server.port)}'`);
  assert.deepEqual([r.stdout, server.got], ["refused\n", []]);
});

sandboxTest("attack: connect to this machine's loopback as ::ffff:127.0.0.1 (SBX-8)", async () => {
  await using fx = await agentFixture();
  await using server = echoServer();
  const r = await fx.sh(tcp("::ffff:127.0.0.1", server.port));
  assert.deepEqual([r.stdout, server.got], ["unreachable\n", []]);
});

sandboxTest("attack: connect to this machine's loopback as ::1", async () => {
  await using fx = await agentFixture();
  const listener = Deno.listen({ hostname: "::1", port: 0 });
  try {
    const r = await fx.sh(tcp("::1", listener.addr.port));
    assert.equal(r.stdout, "unreachable\n");
  } finally {
    listener.close();
  }
});

const LAN = Deno.networkInterfaces().filter((i) => i.family === "IPv4" && !i.address.startsWith("127."));

Deno.test({
  name: "attack: connect to this machine's own network address",
  ignore: LAN.length === 0,
}, async () => {
  await using fx = await agentFixture();
  const listener = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  try {
    const r = await fx.sh(tcp(LAN[0]!.address, listener.addr.port));
    assert.equal(r.stdout, "unreachable\n");
  } finally {
    listener.close();
  }
});

/** A listener outside on an abstract unix socket (perl), answering "hello"; its name and a stop. */
async function abstractListener(name: string) {
  const child = new Deno.Command("perl", {
    args: [
      "-MSocket",
      "-e",
      `socket(S, PF_UNIX, SOCK_STREAM, 0) or die; bind(S, pack_sockaddr_un("\\0${name}")) or die "bind: $!";
       listen(S, 5); $| = 1; print "ready\\n"; while (accept(C, S)) { print C "hello\\n"; close C }`,
    ],
    stdin: "null",
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "ready\n");
  return {
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await reader.cancel();
      await child.status;
    },
  };
}

const CONNECT_ABSTRACT = (name: string) =>
  `perl -MSocket -e 'socket(S, PF_UNIX, SOCK_STREAM, 0); connect(S, pack_sockaddr_un("\\0${name}")) ? print scalar(<S>) : print "refused\\n"'`;

async function abstractAttempt(name: string): Promise<void> {
  await using fx = await agentFixture();
  await using _listener = await abstractListener(name);
  const outside = await new Deno.Command("sh", { args: ["-c", CONNECT_ABSTRACT(name)], stdout: "piped" })
    .output();
  assert.equal(new TextDecoder().decode(outside.stdout), "hello\n", "the listener answers outside");
  assert.equal((await fx.sh(CONNECT_ABSTRACT(name))).stdout, "refused\n");
}

sandboxTest("attack: connect to an abstract unix socket listening outside", async () => {
  await abstractAttempt(`lnk-attack-${crypto.randomUUID()}`);
});

sandboxTest("attack: connect to X11's abstract socket @/tmp/.X11-unix/X<n> (SBX-8)", async () => {
  await abstractAttempt(`/tmp/.X11-unix/X${1000 + Math.floor(Math.random() * 8000)}`);
});

/** Runs a bash script under `lnk sandbox run` with its proxy; returns what it wrote to $OUT/result. */
async function throughProxy(script: string, spec = ""): Promise<{ result: string; dialled: string[] }> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-proxy-attack-" }));
  try {
    const out = join(home, "out");
    await Deno.mkdir(out);
    await Deno.writeTextFile(join(home, "sandbox.toml"), spec);
    const dialled: string[] = [];
    await sandboxRun({
      paths: new LinkPaths(home),
      specPath: join(home, "sandbox.toml"),
      grants: { write: [out] },
      env: { OUT: out },
      command: ["bash", "-c", script],
      launcher: RELAY_LAUNCHER,
      proxy: {
        resolve: () => Promise.resolve(["93.184.216.34"]),
        dial: (address, port) => {
          dialled.push(`${address}:${port}`);
          return Promise.reject(new Error("the test dials nothing"));
        },
        localNetworks: [],
        machineNames: [],
      },
    });
    return { result: await Deno.readTextFile(join(out, "result")), dialled };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const ASK = (request: string, auth = "") =>
  `exec 3<>/dev/tcp/127.0.0.1/3128; ${auth}
   printf '${request}\\r\\n%sConnection: close\\r\\n\\r\\n' "$H" >&3; head -1 <&3 | tr -d '\\r' > "$OUT/result"`;
// The secret from HTTP_PROXY (http://link:<secret>@127.0.0.1:3128), as a program ignoring it could take it.
const SECRET =
  `P=\${HTTP_PROXY#http://}; H="Proxy-Authorization: Basic $(printf %s "\${P%@*}" | base64 -w0)"$'\\r\\n'`;

sandboxTest("attack: use the proxy without its secret (SBX-19)", async () => {
  const { result, dialled } = await throughProxy(
    ASK("GET http://example.com/ HTTP/1.1\\r\\nHost: example.com"),
  );
  assert.deepEqual({ result, dialled }, {
    result: "HTTP/1.1 407 Proxy Authentication Required\n",
    dialled: [],
  });
});

sandboxTest("attack: use the proxy with a guessed secret (SBX-19)", async () => {
  const guess = `H="Proxy-Authorization: Basic $(printf link:guess | base64 -w0)"$'\\r\\n'`;
  const { result, dialled } = await throughProxy(
    ASK("GET http://example.com/ HTTP/1.1\\r\\nHost: example.com", guess),
  );
  assert.deepEqual({ result, dialled }, {
    result: "HTTP/1.1 407 Proxy Authentication Required\n",
    dialled: [],
  });
});

sandboxTest("attack: reach this machine's port 22 through the proxy (SBX-8, SBX-11)", async () => {
  const { result, dialled } = await throughProxy(
    ASK("CONNECT 127.0.0.1:22 HTTP/1.1\\r\\nHost: 127.0.0.1:22", SECRET),
  );
  assert.deepEqual({ result, dialled }, { result: "HTTP/1.1 403 Forbidden\n", dialled: [] });
});

sandboxTest("attack: reach a host the spec does not list through the proxy (SBX-12)", async () => {
  const { result, dialled } = await throughProxy(
    ASK("GET http://example.com/ HTTP/1.1\\r\\nHost: example.com", SECRET),
    '[internet]\nhosts = ["api.openai.com"]\n',
  );
  assert.deepEqual({ result, dialled }, { result: "HTTP/1.1 403 Forbidden\n", dialled: [] });
});

sandboxTest("attack: reach a raw TCP port the spec does not name through the proxy (SBX-11)", async () => {
  const { result, dialled } = await throughProxy(
    ASK("CONNECT github.com:2222 HTTP/1.1\\r\\nHost: github.com:2222", SECRET),
    '[internet]\nhosts = ["*"]\ntcp = ["github.com:22"]\n',
  );
  assert.deepEqual({ result, dialled }, { result: "HTTP/1.1 403 Forbidden\n", dialled: [] });
});
