import assert from "node:assert/strict";
import { newAgentKey } from "../../core/base/mod.ts";
import { callBridge } from "../../link_bridge/mod.ts";
import {
  bindKey,
  bodyLineOf,
  type BridgeUnderTest,
  expectError,
  proofLineFor,
  provenCall,
  startRig,
} from "./_support.ts";
import { OtherUserClient, otherUsersUnavailable } from "../support/other_user.ts";
import { RawClient } from "../support/raw_client.ts";

const OTHER_USERS = await otherUsersUnavailable();

/** Registers the rules every bridge keeps (BRG-11), run against `bridge`, running. */
export function runBridgeConformance(bridge: BridgeUnderTest): void {
  const name = `${bridge.name} bridge`;
  const claimOf = (agent: { id: string; owner: string }) => ({
    agentId: agent.id,
    owner: agent.owner,
    action: bridge.action,
  });

  Deno.test(`${name} answers a call proved with its agent's key (BRG-4)`, async () => {
    await using rig = await startRig(bridge);
    await provenCall(rig, bridge);
  });

  Deno.test(`${name} cuts a dripping caller at 5 s over the whole exchange (BRG-12)`, async () => {
    await using rig = await startRig(bridge);
    await using client = await RawClient.connect(rig.server.addr);
    const line = proofLineFor(await client.challenge(), claimOf(rig.agent), rig.agent.key);
    for (const byte of line.slice(0, 5)) {
      await client.write(byte);
      await rig.clock.advance(1_000);
    }
    await expectError(client, "TIMEOUT");
    assert.equal(rig.server.unproven, 0);
  });

  Deno.test(`${name} takes a proof that drips in within 5 s (BRG-12)`, async () => {
    await using rig = await startRig(bridge);
    await using client = await RawClient.connect(rig.server.addr);
    const line = proofLineFor(await client.challenge(), claimOf(rig.agent), rig.agent.key);
    const step = Math.floor(4_900 / line.length);
    for (const byte of line) {
      await client.write(byte);
      await rig.clock.advance(step);
    }
    assert.equal(await client.readLine(), "proven");
  });

  for (
    const [why, over] of [
      ["a wrong key", { key: newAgentKey() }],
      ["another identity (BRG-4)", { owner: "someone-else" }],
      ["another action", { action: "another-action" }],
      ["another label (BRG-6)", { label: "link-endpoint-v1" as const }],
    ] as const
  ) {
    Deno.test(`${name} refuses a proof made with ${why}`, async () => {
      await using rig = await startRig(bridge);
      await using client = await RawClient.connect(rig.server.addr);
      const challenge = await client.challenge();
      await client.write(
        proofLineFor(challenge, claimOf(rig.agent), rig.agent.key, over) + bodyLineOf(bridge),
      );
      await expectError(client, "PROOF_FAILED");
    });
  }

  Deno.test(`${name} refuses an agent's key proving another agent (BRG-15)`, async () => {
    await using rig = await startRig(bridge);
    await using client = await RawClient.connect(rig.server.addr);
    const claim = { ...claimOf(rig.agent), agentId: `${rig.agent.id}b` };
    await client.write(proofLineFor(await client.challenge(), claim, rig.agent.key));
    await expectError(client, "REFUSED");
  });

  Deno.test(`attack: ${name} refuses a proof of another connection's challenge, which takes it (BRG-2)`, async () => {
    await using rig = await startRig(bridge);
    await using first = await RawClient.connect(rig.server.addr);
    await using second = await RawClient.connect(rig.server.addr);
    const stolen = proofLineFor(await first.challenge(), claimOf(rig.agent), rig.agent.key);
    await second.challenge();
    await second.write(stolen);
    await expectError(second, "PROOF_FAILED");
    await first.write(stolen);
    assert.equal(await first.readLine(), "proven");
  });

  Deno.test(`${name} answers a line that is no proof with the one error shape (U-11)`, async () => {
    await using rig = await startRig(bridge);
    await using client = await RawClient.connect(rig.server.addr);
    await client.challenge();
    await client.write("hello bridge\n");
    await expectError(client, "INVALID");
  });

  Deno.test(`${name} refuses the old key once the keyring changes (BRG-14)`, async () => {
    await using rig = await startRig(bridge);
    const caller = {
      agentId: rig.agent.id,
      owner: rig.agent.owner,
      key: rig.agent.key,
      action: bridge.action,
    };
    await bindKey(rig.home, rig.agent.id, newAgentKey());
    await assert.rejects(callBridge(rig.server.addr, caller), { name: "LinkError", code: "PROOF_FAILED" });
    await Deno.remove(rig.home.keyFile(rig.agent.id));
    await using client = await RawClient.connect(rig.server.addr);
    await client.write(proofLineFor(await client.challenge(), claimOf(rig.agent), rig.agent.key));
    await expectError(client, "PROOF_FAILED");
  });

  Deno.test(`${name} holds ${bridge.cap} proven calls and answers one more busy (BRG-11)`, async () => {
    await using rig = await startRig(bridge);
    const held: RawClient[] = [];
    try {
      for (let i = 0; i < bridge.cap; i++) {
        const client = await RawClient.connect(rig.server.addr);
        held.push(client);
        await client.write(proofLineFor(await client.challenge(), claimOf(rig.agent), rig.agent.key));
        assert.equal(await client.readLine(), "proven");
      }
      assert.equal(rig.server.calls, bridge.cap);
      await using extra = await RawClient.connect(rig.server.addr);
      await extra.write(proofLineFor(await extra.challenge(), claimOf(rig.agent), rig.agent.key));
      await expectError(extra, "BUSY");
    } finally {
      for (const client of held) client.close();
    }
  });

  Deno.test({
    name: `${name} keeps a few places per user, the newest taking its own oldest's (BRG-13)` +
      (OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : ""),
    ignore: OTHER_USERS !== undefined,
    async fn() {
      await using rig = await startRig(bridge, { tcp: true });
      const addr = rig.server.addr as { hostname: string; port: number };
      await using other = await OtherUserClient.start(65534, addr.port);
      const otherChallenge = /^challenge ([0-9a-f]{64})$/.exec((await other.readLine()) ?? "")?.[1] ?? "";
      await using proven = await RawClient.connect(addr);
      await proven.write(proofLineFor(await proven.challenge(), claimOf(rig.agent), rig.agent.key));
      assert.equal(await proven.readLine(), "proven");
      const flood: RawClient[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          const client = await RawClient.connect(addr);
          flood.push(client);
          await client.challenge();
        }
        await expectError(flood[0]!, "BUSY");
        assert.equal(rig.server.unproven, 5);
        await other.write(proofLineFor(otherChallenge, claimOf(rig.agent), rig.agent.key));
        assert.equal(await other.readLine(), "proven");
      } finally {
        for (const client of flood) client.close();
      }
      assert.equal(rig.server.calls, 2);
      if (bridge.call) {
        const answer = { answer: bridge.call.answer(rig.agent) };
        await other.write(bodyLineOf(bridge));
        assert.deepEqual(JSON.parse((await other.readLine()) ?? ""), answer);
        await proven.write(bodyLineOf(bridge));
        assert.deepEqual(JSON.parse((await proven.readLine()) ?? ""), answer);
      }
    },
  });

  Deno.test({
    name: `${name} answers busy when other users hold every place (BRG-13, U-10)` +
      (OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : ""),
    ignore: OTHER_USERS !== undefined,
    async fn() {
      await using rig = await startRig(bridge, { tcp: true, placesPerUser: 2, placesPerBridge: 3 });
      const addr = rig.server.addr as { hostname: string; port: number };
      await using first = await RawClient.connect(addr);
      await first.challenge();
      await using second = await RawClient.connect(addr);
      await second.challenge();
      await using other = await OtherUserClient.start(65534, addr.port);
      assert.match((await other.readLine()) ?? "", /^challenge /);
      await using third = await OtherUserClient.start(65533, addr.port);
      await expectError(third, "BUSY");
      await using again = await RawClient.connect(addr);
      await again.challenge();
      await expectError(first, "BUSY");
      assert.equal(rig.server.unproven, 3);
    },
  });
}
