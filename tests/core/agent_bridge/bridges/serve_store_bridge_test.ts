import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { bridgeErrorCode, callBridge } from "../../../../link_bridge/mod.ts";
import { type AgentSettings, parseSpec, storeSocketPath } from "../../../../core/agent/mod.ts";
import { bridgeStore, sqliteStore } from "../../../../core/harness/store/mod.ts";
import { message } from "../../../support/store_contract.ts";
import { boundAgent, startStoreRig } from "./_support.ts";
import { sqliteStorePath } from "../../../../core/agent_bridge/mod.ts";
import { serveStoreBridge } from "../../../../core/agent_bridge/mod.ts";
import { storeDriverFor } from "../../../../core/agent_bridge/mod.ts";

function settingsOf(agent: { id: string; owner: string }): AgentSettings {
  return {
    id: agent.id,
    name: "Helper",
    owner: agent.owner,
    harness: "link",
    ports: { endpoint: 20000, block: 20000 },
    sandbox: { enabled: true },
    bots: {},
  };
}

/** Rejects with the bridge's wire code `code`, returning the error. */
async function rejectsWith(call: Promise<unknown>, code: string): Promise<Error> {
  const err = await call.then(() => undefined, (e) => e);
  assert.ok(err instanceof Error, `expected the call to fail with "${code}"`);
  assert.equal(bridgeErrorCode(err) ?? (err as { code?: string }).code, code);
  return err;
}

Deno.test("storeDriverFor() keeps SQLite in the agent's state folder and files in Agent/chats (TRN-14)", async () => {
  await using rig = await startStoreRig(() => ({ kind: "files", root: "unused" }));
  const settings = settingsOf(rig.agent);
  assert.deepEqual(
    storeDriverFor(rig.paths, settings, parseSpec('[model]\nstore = "sqlite"\n', "spec.toml")),
    {
      kind: "sqlite",
      path: join(rig.paths.agentState(rig.agent.id), "chats.sqlite"),
    },
  );
  assert.deepEqual(storeDriverFor(rig.paths, settings, parseSpec("", "spec.toml")), {
    kind: "files",
    root: join(rig.paths.agentFolder("Helper"), "Agent", "chats"),
  });
});

Deno.test("serveStoreBridge() with the spec's SQLite driver writes ~/.lnk/agents/<id>/chats.sqlite, never the agent's folders (TRN-14)", async () => {
  const bound = await boundAgent();
  try {
    const settings = settingsOf(bound.agent);
    const spec = parseSpec('[model]\nstore = "sqlite"\n', "spec.toml");
    {
      await using _server = await serveStoreBridge({
        ...bound,
        driver: storeDriverFor(bound.paths, settings, spec),
      });
      await using store = bridgeStore({
        socket: storeSocketPath(bound.paths, bound.agent.id),
        agentId: bound.agent.id,
        owner: bound.agent.owner,
        key: bound.key,
      });
      assert.equal(await store.append("link:main", 1, message("hi")), "ok");
    }
    await using direct = sqliteStore(sqliteStorePath(bound.paths, bound.agent.id));
    assert.deepEqual(await direct.read("link:main"), [{ n: 1, event: message("hi") }]);
    await assert.rejects(Deno.stat(bound.paths.agentFolder("Helper")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(bound.root, { recursive: true });
  }
});

Deno.test("serveStoreBridge() refuses a conversation id that reads as a path (TRN-14)", async () => {
  await using rig = await startStoreRig((root) => ({ kind: "files", root: join(root, "chats") }));
  await using store = rig.open();
  for (
    const id of [
      "../other/chats/link:main",
      "/etc/passwd",
      "link:a/../../b",
      "a\\b",
      "~/x",
      "a\u0000b",
      "x".repeat(513),
    ]
  ) {
    await rejectsWith(store.append(id, 1, message("x")), "refused");
    await rejectsWith(store.read(id), "refused");
  }
  assert.deepEqual(await store.list(), []);
  const entries = await Array.fromAsync(Deno.readDir(rig.root));
  assert.deepEqual(entries.map((e) => e.name).sort(), ["home"]);
});

Deno.test("serveStoreBridge() answers an agent from its own store only; another agent's key or identity is refused (TRN-14, BRG-15)", async () => {
  await using a = await startStoreRig((root) => ({ kind: "sqlite", path: join(root, "a.sqlite") }));
  await using b = await startStoreRig((root) => ({ kind: "sqlite", path: join(root, "b.sqlite") }));
  await using storeA = a.open();
  await using storeB = b.open();
  await storeA.append("link:main", 1, message("from a"));
  await storeB.append("link:main", 1, message("from b"));
  assert.deepEqual(await storeA.read("link:main"), [{ n: 1, event: message("from a") }]);
  assert.deepEqual(await storeB.read("link:main"), [{ n: 1, event: message("from b") }]);
  // A's harness calling B's store bridge as itself: B's bridge serves no such agent.
  await using aAtB = bridgeStore({ socket: b.socket, agentId: a.agent.id, owner: a.agent.owner, key: a.key });
  await rejectsWith(aAtB.read("link:main"), "refused");
  // A's key claiming B's identity.
  await using aAsB = bridgeStore({ socket: b.socket, agentId: b.agent.id, owner: b.agent.owner, key: a.key });
  await rejectsWith(aAsB.read("link:main"), "unproven");
  // B's identity with another owner.
  await using otherOwner = bridgeStore({
    socket: b.socket,
    agentId: b.agent.id,
    owner: "someone",
    key: b.key,
  });
  await rejectsWith(otherOwner.read("link:main"), "refused");
});

Deno.test("serveStoreBridge() answers a body whose op is not the proven action as invalid (USAGE), another action refused", async () => {
  await using rig = await startStoreRig((root) => ({ kind: "files", root: join(root, "chats") }));
  const caller = { agentId: rig.agent.id, owner: rig.agent.owner, key: rig.key };
  await rejectsWith(callBridge(rig.socket, { ...caller, action: "read", body: { op: "list" } }), "invalid");
  await rejectsWith(callBridge(rig.socket, { ...caller, action: "drop", body: { op: "drop" } }), "refused");
  await assert.rejects(rig.open().read("link:main", 0), { name: "LinkError", code: "USAGE" });
});

Deno.test("serveStoreBridge() answers a driver's failure in its own words: no path of the database crosses (TRN-14)", async () => {
  await using rig = await startStoreRig((root) => ({ kind: "sqlite", path: join(root, "chats.sqlite") }));
  await using store = rig.open();
  await store.append("link:main", 1, message("hi"));
  const db = new DatabaseSync(join(rig.root, "chats.sqlite"));
  db.prepare("UPDATE events SET event = ? WHERE conversation = ?").run("{not json", "link:main");
  db.close();
  const err = await rejectsWith(store.read("link:main"), "refused");
  assert.equal(
    err.message,
    `Cannot read conversation "link:main": the store failed, and the bridge's log says why`,
  );
  assert.equal((err as { hint?: string }).hint, undefined);
});
