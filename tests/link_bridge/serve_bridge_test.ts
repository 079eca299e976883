import assert from "node:assert/strict";
import { join } from "node:path";
import { callBridge, keyForOne, serveBridge } from "../../link_bridge/mod.ts";
import { newAgentKey } from "../../core/base/mod.ts";

const agent = { id: "agentx", owner: "local-test-0", key: newAgentKey() };

async function tempFolder(mode: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-bridge-" });
  await Deno.chmod(dir, mode);
  return dir;
}

Deno.test("serveBridge() refuses a socket in a folder other users may enter", async () => {
  const dir = await tempFolder(0o755);
  try {
    await assert.rejects(
      serveBridge({
        path: join(dir, "b.sock"),
        name: "b",
        cap: 1,
        keyFor: keyForOne(agent),
        handle: () => Promise.resolve(null),
      }),
      { name: "LinkError", code: "REFUSED" },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveBridge() replaces a stale socket, makes it 0600, and removes it when it stops", async () => {
  const dir = await tempFolder(0o700);
  const path = join(dir, "b.sock");
  try {
    Deno.listen({ transport: "unix", path }).close();
    const server = await serveBridge({
      path,
      name: "b",
      cap: 1,
      keyFor: keyForOne(agent),
      handle: (call) => Promise.resolve({ action: call.action }),
    });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    const caller = { agentId: agent.id, owner: agent.owner, key: agent.key, action: "ping" };
    assert.deepEqual(await callBridge(path, caller), { action: "ping" });
    await server.close();
    await assert.rejects(Deno.lstat(path), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveBridge() stops on its signal, aborting the calls it holds and waiting for them", async () => {
  const dir = await tempFolder(0o700);
  const stop = new AbortController();
  const held = Promise.withResolvers<void>();
  let ended = false;
  try {
    const server = await serveBridge({
      path: join(dir, "b.sock"),
      name: "b",
      cap: 1,
      signal: stop.signal,
      keyFor: keyForOne(agent),
      async handle(call) {
        held.resolve();
        await new Promise((resolve) => call.signal.addEventListener("abort", resolve));
        ended = true;
      },
    });
    const caller = { agentId: agent.id, owner: agent.owner, key: agent.key, action: "wait" };
    const call = callBridge(server.addr, caller).then(
      () => ({ code: "answered" }),
      (err) => ({ code: err.code }),
    );
    await held.promise;
    assert.equal(server.calls, 1);
    stop.abort();
    await server.close();
    assert.deepEqual({ ended, calls: server.calls, code: (await call).code }, {
      ended: true,
      calls: 0,
      code: "REFUSED",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveBridge() needs a path or a port, and a cap above 0", async () => {
  const base = { name: "b", keyFor: keyForOne(agent), handle: () => Promise.resolve(null) };
  await assert.rejects(serveBridge({ ...base, cap: 1 }), { name: "LinkError", code: "INTERNAL" });
  await assert.rejects(serveBridge({ ...base, cap: 0, port: 0 }), { name: "LinkError", code: "INTERNAL" });
});
