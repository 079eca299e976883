/**
 * Another local user's flood of unproven connections against a real door, a real bridge and a
 * real proxy, each in a process of its own (_flood_child.ts) whose descriptor limit the test
 * lowers, so EMFILE really happens (issue 9, item 8; BRG-12, BRG-13).
 */
import assert from "node:assert/strict";
import { callBridge } from "../../../../link_bridge/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { OtherUserClient, otherUsersUnavailable } from "../../../support/other_user.ts";
import { type FloodTarget, provedCallOn, startFloodTarget } from "./_support.ts";
import { DOOR_PLACES_PER_USER } from "../../../../core/agent_bridge/door/mod.ts";

const OTHER_USERS = await otherUsersUnavailable();
const ignored = OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : "";
const FLOODER = 65534;
const NEIGHBOUR = 65533;

/** The flood's tally once it has tried every connection. */
interface Tally {
  opened: number;
  failed: number;
  closed: number;
}

async function tallyOf(flood: OtherUserClient): Promise<Tally> {
  return JSON.parse((await flood.readLine()) ?? "{}");
}

/** The owner's proved call through the door, as `lnk agent chat send` makes it. */
async function ownersCall(target: FloodTarget): Promise<unknown> {
  await using endpoint = await openEndpoint({ port: target.door }, {
    agentId: target.agent.id,
    agentName: "work",
    key: target.agent.key,
  });
  const answer = await endpoint.call("session/new", {
    cwd: "/",
    mcpServers: [],
    _meta: { "link.local/thread": "link:main" },
  });
  return answer.result;
}

const cannotAccept = (server: string) => (e: Record<string, unknown>) =>
  e.msg === "Cannot accept a connection, waiting before the next" && e.server === server;

Deno.test({
  name: "attack: 3,000 unproven connections from another user at a 1,024-descriptor door; " +
    "the owner's and a third user's proved calls are answered, the flood holds its few places (BRG-13)" +
    ignored,
  ignore: OTHER_USERS !== undefined,
  async fn() {
    await using target = await startFloodTarget({ soft: 1024 });
    assert.equal(target.limit, 1024);
    await using flood = await OtherUserClient.flood(FLOODER, target.door, 3000);
    const tried = await tallyOf(flood);
    assert.equal(tried.opened + tried.failed, 3000);
    // With the flood's sockets still open on its side.
    await using neighbour = await OtherUserClient.start(NEIGHBOUR, target.door);
    assert.equal(await provedCallOn(neighbour, target.agent), 200);
    assert.deepEqual(await ownersCall(target), { sessionId: "link:main" });
    assert.ok(await target.unproven() <= DOOR_PLACES_PER_USER + 1);
    // Every one of the flood's connections but its last few places is let go.
    await flood.write(`closed ${tried.opened - DOOR_PLACES_PER_USER}\n`);
    assert.ok((await tallyOf(flood)).closed >= tried.opened - DOOR_PLACES_PER_USER);
  },
});

Deno.test({
  name: "attack: another user's flood drives the door to EMFILE; it keeps accepting and answers the owner" +
    ignored,
  ignore: OTHER_USERS !== undefined,
  async fn() {
    await using target = await startFloodTarget({ headroom: 24 });
    {
      await using _flood = await OtherUserClient.flood(FLOODER, target.door, 600);
      await target.logged(cannotAccept("door"));
    }
    // Once the flood's connections are let go, descriptors are free again.
    await target.doorIdle();
    assert.deepEqual(await ownersCall(target), { sessionId: "link:main" });
    await target.logged((e) => e.msg === "Accepting again" && e.server === "door");
  },
});

Deno.test({
  name:
    "attack: another user's flood drives a bridge to EMFILE; it keeps accepting and answers a proven call" +
    ignored,
  ignore: OTHER_USERS !== undefined,
  async fn() {
    await using target = await startFloodTarget({ headroom: 24 });
    {
      await using _flood = await OtherUserClient.flood(FLOODER, target.bridge, 600);
      await target.logged(cannotAccept('bridge "demo"'));
    }
    const answer = await callBridge({ hostname: "127.0.0.1", port: target.bridge }, {
      agentId: target.agent.id,
      owner: target.agent.owner,
      key: target.agent.key,
      action: "echo",
      body: { text: "still here" },
    });
    assert.deepEqual(answer, { text: "still here", agentId: target.agent.id, owner: target.agent.owner });
  },
});

Deno.test({
  name:
    "attack: half-sent requests drive the proxy to EMFILE; it keeps accepting and forwards the next request" +
    ignored,
  ignore: OTHER_USERS !== undefined,
  async fn() {
    await using target = await startFloodTarget({ headroom: 24 });
    {
      await using _flood = await OtherUserClient.flood(FLOODER, target.proxy, 600, "GET /_link/s/");
      await target.logged(cannotAccept("proxy"));
    }
    const res = await fetch(
      `http://127.0.0.1:${target.proxy}/_link/s/flood-secret-0123456789/http/example.com/`,
    );
    assert.deepEqual([res.status, await res.text()], [200, "hello"]);
  },
});
