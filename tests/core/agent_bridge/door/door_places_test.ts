/**
 * The door's unproven connections (BRG-12, BRG-13): a deadline of the caller's own time, places per
 * calling user, and a proof bound to its connection through the door (BRG-2). A real door over a
 * real endpoint in this process, its time a fake clock.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeKey, makeProof, newAgentKey, newChallenge } from "../../../../core/base/mod.ts";
import { type EndpointHandler, serveEndpoint } from "../../../../connections/mod.ts";
import { miniHarnessHandler } from "../../../../core/adapters/mini/mod.ts";
import { FakeClock } from "../../../support/fake_clock.ts";
import { OtherUserClient, otherUsersUnavailable } from "../../../support/other_user.ts";
import { RawClient } from "../../../support/raw_client.ts";
import { type LineConn, provedCallOn, readResponse } from "./_support.ts";
import { provesCaller } from "../../../../core/agent_bridge/door/mod.ts";
import { serveDoor } from "../../../../core/agent_bridge/door/mod.ts";
import { type Door } from "../../../../core/agent_bridge/door/mod.ts";

const OTHER_USERS = await otherUsersUnavailable();
const agent = { id: "doorplaces01", key: newAgentKey() };
const mini = miniHarnessHandler({ agents: [{ id: agent.id, name: "work", key: encodeKey(agent.key) }] });

interface Rig extends AsyncDisposable {
  door: Door;
  clock: FakeClock;
  connect(): Promise<RawClient>;
  /** Resolves once `test` holds, looked at whenever the door's connections or places change. */
  until(test: () => boolean): Promise<void>;
}

async function doorRig(
  options: { handler?: EndpointHandler; target?: () => Promise<void>; placesPerUser?: number } = {},
): Promise<Rig> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-door-places-" });
  const socket = join(dir, "endpoint.sock");
  const endpoint = await serveEndpoint({ path: socket }, options.handler ?? mini);
  const clock = new FakeClock();
  let looked = () => {};
  const door = serveDoor({
    port: 0,
    clock,
    placesPerUser: options.placesPerUser,
    target: async () => {
      await options.target?.();
      return socket;
    },
    onActivity: () => looked(),
    onPlaces: () => looked(),
  });
  return {
    door,
    clock,
    connect: () => RawClient.connect({ hostname: "127.0.0.1", port: door.port }),
    async until(test) {
      while (!test()) {
        const { promise, resolve } = Promise.withResolvers<void>();
        looked = resolve;
        if (test()) break;
        await promise;
      }
    },
    async [Symbol.asyncDispose]() {
      await door.close();
      await endpoint.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Asks for the endpoint's proof on `conn` (which proves nothing at the door); its next challenge. */
async function askProof(conn: LineConn): Promise<string> {
  await conn.write(
    `GET /_link/proof HTTP/1.1\r\nHost: x\r\nLink-Agent-Id: ${agent.id}\r\nLink-Challenge: ${newChallenge()}\r\n\r\n`,
  );
  const answer = await readResponse(conn);
  assert.equal(answer.status, 200);
  return answer.headers["link-challenge"] ?? "";
}

/** `session/new` proved with `challenge`, as the bytes a caller sends. */
function provedRequest(challenge: string): string {
  const mac = makeProof(agent.key, "link-caller-v1", challenge, agent.id);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
  return `POST /acp HTTP/1.1\r\nHost: x\r\nLink-Agent-Id: ${agent.id}\r\nLink-Proof: ${challenge} ${mac}\r\n` +
    `Content-Length: ${body.length}\r\n\r\n${body}`;
}

Deno.test("attack: a caller dripping its request a byte a second is cut at 5 s of its own time (BRG-12)", async () => {
  await using rig = await doorRig();
  await using client = await rig.connect();
  await askProof(client);
  await rig.until(() => rig.door.unproven === 1);
  for (const byte of "POST") {
    await client.write(byte);
    await rig.clock.advance(1_000);
  }
  assert.equal(rig.door.unproven, 1);
  await client.write(" ");
  await rig.clock.advance(1_000);
  assert.equal(await client.readLine(), undefined);
  await rig.until(() => rig.door.activity.connections === 0);
  assert.equal(rig.door.unproven, 0);
});

Deno.test("serveDoor() takes a proof that drips in within 5 s, and holds a proven connection with no deadline", async () => {
  await using rig = await doorRig();
  await using client = await rig.connect();
  const request = provedRequest(await askProof(client));
  const step = Math.floor(4_900 / request.length);
  for (const byte of request) {
    await client.write(byte);
    await rig.clock.advance(step);
  }
  const answer = await readResponse(client);
  assert.equal(answer.status, 200);
  assert.equal(rig.door.unproven, 0);
  await rig.clock.advance(10 * 60_000);
  await client.write(provedRequest(answer.headers["link-challenge"] ?? ""));
  assert.equal((await readResponse(client)).status, 200);
});

Deno.test("serveDoor() counts neither the wake nor the agent's answer against an unproven caller (BRG-12)", async () => {
  const woken = Promise.withResolvers<void>();
  const asked = Promise.withResolvers<void>();
  const answered = Promise.withResolvers<void>();
  const handler: EndpointHandler = async (req, conn) => {
    if (new URL(req.url).pathname !== "/slow") return await mini(req, conn);
    asked.resolve();
    await answered.promise;
    return Response.json({ error: { code: "unproven", message: "not proved" } }, { status: 401 });
  };
  await using rig = await doorRig({ handler, target: () => woken.promise });
  await using client = await rig.connect();
  await rig.until(() => rig.door.unproven === 1);
  await rig.clock.advance(60_000);
  woken.resolve();
  await client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
  await asked.promise;
  await rig.clock.advance(60_000);
  answered.resolve();
  assert.equal((await readResponse(client)).status, 401);
  await rig.clock.advance(4_999);
  assert.equal(rig.door.unproven, 1);
  await rig.clock.advance(1);
  assert.equal(await client.readLine(), undefined);
});

Deno.test("attack: a challenge the endpoint gave one door connection is refused on another, and taken on its own (BRG-2)", async () => {
  await using rig = await doorRig();
  await using first = await rig.connect();
  await using second = await rig.connect();
  const challenge = await askProof(first);
  await second.write(provedRequest(challenge));
  const refused = await readResponse(second);
  assert.equal(refused.status, 401);
  assert.deepEqual(JSON.parse(refused.body), {
    error: {
      code: "PROOF_FAILED",
      message: "The caller did not prove the agent's key: the challenge was given on another connection",
      hint: null,
    },
  });
  await first.write(provedRequest(challenge));
  assert.equal((await readResponse(first)).status, 200);
});

Deno.test({
  name:
    "attack: another user's newest unproven connection takes its own oldest's place; the owner's pending " +
    "proof is untouched (BRG-13)" + (OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : ""),
  ignore: OTHER_USERS !== undefined,
  async fn() {
    await using rig = await doorRig({ placesPerUser: 2 });
    await using owner = await rig.connect();
    await rig.until(() => rig.door.unproven === 1);
    const flood: OtherUserClient[] = [];
    try {
      for (const held of [2, 3]) {
        flood.push(await OtherUserClient.start(65534, rig.door.port));
        await rig.until(() => rig.door.unproven === held);
      }
      flood.push(await OtherUserClient.start(65534, rig.door.port));
      assert.equal(await flood[0]!.readLine(), undefined);
      await rig.until(() => rig.door.activity.connections === 3);
      assert.equal(rig.door.unproven, 3);
      assert.equal(await provedCallOn(owner, agent), 200);
      assert.equal(rig.door.unproven, 2);
    } finally {
      for (const client of flood) await client[Symbol.asyncDispose]();
    }
  },
});

Deno.test("provesCaller() takes a 2xx or a switch of protocol to any request but the endpoint's health and its proof", () => {
  const seen = [
    [200, "POST", "/acp"],
    [202, "POST", "/acp"],
    [200, "GET", "/_link/recover?wait=1"],
    [200, "GET", "/_link/proof"],
    [200, "GET", "/_link/proof?agent=x"],
    [200, "GET", "/"],
    [401, "POST", "/acp"],
    [101, "GET", "/acp"],
    [503, "GET", "/_link/busy"],
  ].map(([status, method, target]) =>
    provesCaller(status as number, { method: `${method}`, target: `${target}` })
  );
  assert.deepEqual(seen, [true, true, true, false, false, false, false, true, false]);
});
