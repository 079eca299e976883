import assert from "node:assert/strict";
import { join } from "node:path";
import { LinkError, makeProof, newAgentKey, newChallenge } from "../../../../core/base/mod.ts";
import { FakeClock } from "../../../support/fake_clock.ts";
import { type DoorActivity } from "../../../../core/agent_bridge/door/mod.ts";
import { serveDoor } from "../../../../core/agent_bridge/door/mod.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Every activity the door reports, and a way to wait for the next one matching. */
class ActivityLog {
  seen: DoorActivity[] = [];
  #waiters: { test: (a: DoorActivity) => boolean; resolve: (a: DoorActivity) => void }[] = [];
  #cursor = 0;

  record = (activity: DoorActivity): void => {
    this.seen.push(activity);
    for (const waiter of [...this.#waiters]) this.#offer(waiter);
  };

  /** Resolves with the next activity (after the last one waited for) that matches. */
  next(test: (a: DoorActivity) => boolean): Promise<DoorActivity> {
    const { promise, resolve } = Promise.withResolvers<DoorActivity>();
    const waiter = { test, resolve };
    this.#waiters.push(waiter);
    this.#offer(waiter);
    return promise;
  }

  #offer(waiter: { test: (a: DoorActivity) => boolean; resolve: (a: DoorActivity) => void }): void {
    while (this.#cursor < this.seen.length) {
      const activity = this.seen[this.#cursor++]!;
      if (waiter.test(activity)) {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        return waiter.resolve(activity);
      }
    }
  }
}

/** A unix socket standing in for the agent, whose answers the test writes byte by byte. */
async function fakeAgent(): Promise<
  { path: string; listener: Deno.Listener; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-door-" });
  const path = join(dir, "endpoint.sock");
  const listener = Deno.listen({ transport: "unix", path });
  return {
    path,
    listener,
    async [Symbol.asyncDispose]() {
      listener.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function write(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/** Reads until `text` has come whole; returns everything read. */
async function readUntil(conn: Deno.Conn, text: string): Promise<string> {
  let got = "";
  const buf = new Uint8Array(4096);
  while (!got.includes(text)) {
    const n = await conn.read(buf);
    if (n === null) {
      throw new Error(`connection ended before ${JSON.stringify(text)}; got ${JSON.stringify(got)}`);
    }
    got += decoder.decode(buf.subarray(0, n));
  }
  return got;
}

async function readToEnd(conn: Deno.Conn): Promise<string> {
  let got = "";
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) return got;
    got += decoder.decode(buf.subarray(0, n));
  }
}

const GET = "GET /x HTTP/1.1\r\nHost: agent\r\n\r\n";

Deno.test("serveDoor() relays bytes both ways and is busy only while an answer is coming (PRC-10, PRC-11)", async () => {
  await using agent = await fakeAgent();
  const log = new ActivityLog();
  const clock = new FakeClock();
  const start = clock.now();
  let targets = 0;
  await using door = serveDoor({
    port: 0,
    target: () => Promise.resolve((targets++, agent.path)),
    onActivity: log.record,
    clock,
  });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
  const upstream = await agent.listener.accept();
  try {
    // The door tells its tracker before passing bytes on, so once they arrive the activity is known.
    await write(client, GET);
    assert.equal(await readUntil(upstream, "\r\n\r\n"), GET);
    assert.equal(door.activity.busy, true);
    await write(upstream, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
    await readUntil(client, "hel");
    await clock.advance(60_000);
    assert.equal(door.activity.busy, true);
    await write(upstream, "lo\r\n0\r\n\r\n");
    await readUntil(client, "0\r\n\r\n");
    assert.deepEqual(door.activity, { busy: false, connections: 1, lastTrafficAt: start + 60_000 });
    await write(client, GET);
    await readUntil(upstream, "\r\n\r\n");
    assert.equal(door.activity.busy, true);
    await write(upstream, "HTTP/1.1 204 No Content\r\n\r\n");
    await readUntil(client, "\r\n\r\n");
    assert.equal(door.activity.busy, false);
  } finally {
    client.close();
    upstream.close();
  }
  await log.next((a) => a.connections === 0);
  const later = start + 60_000;
  assert.deepEqual(log.seen, [
    { busy: true, connections: 1, lastTrafficAt: start }, // opened, waking the agent
    { busy: false, connections: 1, lastTrafficAt: start }, // reached it, nothing asked yet
    { busy: true, connections: 1, lastTrafficAt: start }, // a request
    { busy: false, connections: 1, lastTrafficAt: later }, // its answer complete: idle keep-alive
    { busy: true, connections: 1, lastTrafficAt: later },
    { busy: false, connections: 1, lastTrafficAt: later },
    { busy: false, connections: 0, lastTrafficAt: later },
  ]);
  assert.equal(targets, 1);
});

Deno.test("serveDoor() answers 503 with the error in Link's one shape, its code kept, when the agent cannot be woken", async () => {
  const log = new ActivityLog();
  await using door = serveDoor({
    port: 0,
    target: () =>
      Promise.reject(
        new LinkError("CONFIG_INVALID", 'Cannot start agent "main": its spec is broken', { hint: "Fix it" }),
      ),
    onActivity: log.record,
  });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
  try {
    await write(client, GET);
    const answer = await readToEnd(client);
    const body =
      '{"error":{"code":"CONFIG_INVALID","message":"Cannot start agent \\"main\\": its spec is broken",' +
      '"hint":"Fix it"}}\n';
    assert.equal(
      answer,
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${encoder.encode(body).length}\r\nConnection: close\r\n\r\n${body}`,
    );
  } finally {
    client.close();
  }
  await log.next((a) => a.connections === 0);
  assert.equal(door.activity.busy, false);
});

Deno.test("serveDoor() answers 503 only once the request came, so an HTTP client reads it as the answer", async () => {
  await using door = serveDoor({
    port: 0,
    target: () =>
      Promise.reject(new LinkError("SERVICE_FAILED", 'Cannot wake agent "main": it has no key bound')),
  });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
  try {
    // Nothing is answered before the request: the wake failed at the connection, the answer waits.
    await write(client, GET.slice(0, 10));
    await write(client, GET.slice(10));
    assert.match(
      await readToEnd(client),
      /^HTTP\/1.1 503 Service Unavailable\r\n[^]*it has no key bound","hint":null}}\n$/,
    );
  } finally {
    client.close();
  }
  const res = await fetch(`http://127.0.0.1:${door.port}/_link/proof`);
  assert.deepEqual([res.status, res.headers.get("link-proof"), await res.json()], [503, null, {
    error: { code: "SERVICE_FAILED", message: 'Cannot wake agent "main": it has no key bound', hint: null },
  }]);
});

Deno.test("attack: the door's 503 proves the agent's key only to a proof request for its own agent, so a squatter's 503 cannot pass for it", async () => {
  const key = newAgentKey();
  const agentId = "agentdoor1";
  await using door = serveDoor({
    port: 0,
    target: () =>
      Promise.reject(new LinkError("AGENT_NOT_RUNNING", 'Cannot wake agent "main": it has no key bound')),
    prover: { agentId, key },
  });
  const ask = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`http://127.0.0.1:${door.port}${path}`, { headers });
    await res.body?.cancel();
    return [res.status, res.headers.get("link-proof")];
  };
  const challenge = newChallenge();
  const proof = makeProof(key, "link-endpoint-v1", challenge, agentId);
  // Its own agent's proof request: the proof the harness would give, so Link's client trusts the 503.
  assert.deepEqual(await ask("/_link/proof", { "Link-Challenge": challenge, "Link-Agent-Id": agentId }), [
    503,
    proof,
  ]);
  // Anything else: no proof, so no one can borrow the door to prove a body of its own.
  for (
    const [path, headers] of [
      ["/_link/proof", { "Link-Challenge": challenge, "Link-Agent-Id": "someoneelse" }],
      ["/_link/proof", { "Link-Challenge": "abc", "Link-Agent-Id": agentId }],
      ["/_link/proof", { "Link-Agent-Id": agentId }],
      ["/acp", { "Link-Challenge": challenge, "Link-Agent-Id": agentId }],
    ] as const
  ) assert.deepEqual(await ask(path, headers), [503, null], `${path} ${JSON.stringify(headers)}`);
});

Deno.test("serveDoor() answers fetch through the agent's socket, waking it per connection", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-door-" });
  const path = join(dir, "endpoint.sock");
  const ready = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path, transport: "unix", onListen: () => ready.resolve() },
    async (req) => new Response(`you sent ${await req.text()}`),
  );
  await ready.promise;
  let wakes = 0;
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    await using door = serveDoor({ port: 0, target: () => Promise.resolve((wakes++, path)) });
    for (const text of ["one", "two"]) {
      const res = await fetch(`http://127.0.0.1:${door.port}/`, { method: "POST", body: text, client });
      assert.deepEqual({ status: res.status, text: await res.text() }, {
        status: 200,
        text: `you sent ${text}`,
      });
    }
    assert.equal(wakes, 2);
  } finally {
    client.close();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveDoor() counts an upgraded connection busy until it closes (U-36)", async () => {
  await using agent = await fakeAgent();
  const log = new ActivityLog();
  const clock = new FakeClock();
  await using door = serveDoor({
    port: 0,
    clock,
    target: () => Promise.resolve(agent.path),
    onActivity: log.record,
  });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
  const upstream = await agent.listener.accept();
  try {
    await write(client, "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
    await readUntil(upstream, "\r\n\r\n");
    await write(upstream, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n");
    await readUntil(client, "\r\n\r\n");
    await write(client, "\x81\x02hi");
    await readUntil(upstream, "hi");
    assert.equal(door.activity.busy, true);
  } finally {
    client.close();
    upstream.close();
  }
  assert.deepEqual(await log.next((a) => a.connections === 0), {
    busy: false,
    connections: 0,
    lastTrafficAt: clock.now(),
  });
});

Deno.test("serveDoor() hangs up every connection when it closes", async () => {
  await using agent = await fakeAgent();
  const door = serveDoor({ port: 0, target: () => Promise.resolve(agent.path) });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
  const upstream = await agent.listener.accept();
  await door.close();
  assert.equal(await readToEnd(client), "");
  assert.equal(await readToEnd(upstream), "");
  client.close();
  upstream.close();
  await assert.rejects(
    Deno.connect({ hostname: "127.0.0.1", port: door.port }),
    Deno.errors.ConnectionRefused,
  );
});

Deno.test("serveDoor() refuses a port that is taken", () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  assert.throws(() => serveDoor({ port: taken.addr.port, target: () => Promise.resolve("") }), {
    name: "LinkError",
    code: "PORT_UNAVAILABLE",
  });
});
