import assert from "node:assert/strict";
import { addresseeOf, SignalOwner } from "../../../connections/signal/addressee.ts";
import { SignalEnvelope } from "../../../connections/signal/signal_envelope.ts";

const OWNER = "+15550001111";
const OWNER_UUID = "0b9c6f36-0000-4000-8000-000000000001";

function envelope(fields: Record<string, unknown>): SignalEnvelope {
  return SignalEnvelope.parse({ timestamp: 1700000000000, dataMessage: { message: "hi" }, ...fields });
}

Deno.test("addresseeOf() answers the owner by number, then by the ACI learned beside it, after a restart too", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const owner = await SignalOwner.open(stateDir, OWNER);
    assert.equal(await addresseeOf(envelope({ sourceUuid: OWNER_UUID }), { owner }), undefined);
    const mine = { thread: `signal:${OWNER}`, recipient: OWNER, source: OWNER };
    assert.deepEqual(
      await addresseeOf(envelope({ sourceNumber: OWNER, sourceUuid: OWNER_UUID }), { owner }),
      mine,
    );
    const again = await SignalOwner.open(stateDir, OWNER);
    assert.deepEqual(
      await addresseeOf(envelope({ sourceNumber: null, sourceUuid: OWNER_UUID }), { owner: again }),
      mine,
    );
    // The ACI kept for another number is not this owner's.
    const other = await SignalOwner.open(stateDir, "+15559999999");
    assert.equal(await addresseeOf(envelope({ sourceUuid: OWNER_UUID }), { owner: other }), undefined);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("addresseeOf() answers a person let in with Link-From, and drops groups, syncs, receipts and strangers", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const owner = await SignalOwner.open(stateDir, OWNER);
    const access = { chats: new Set<string>(), persons: new Set(["+15552220000"]) };
    assert.deepEqual(await addresseeOf(envelope({ sourceNumber: "+15552220000" }), { owner, access }), {
      thread: "signal:+15552220000",
      recipient: "+15552220000",
      source: "+15552220000",
      from: "person:signal:+15552220000",
    });
    const dropped = [
      envelope({ sourceNumber: "+15553330000" }),
      envelope({ sourceNumber: OWNER, dataMessage: { message: "hi all", groupInfo: { groupId: "g" } } }),
      envelope({ sourceNumber: OWNER, dataMessage: null, syncMessage: { sentMessage: {} } }),
      envelope({ sourceNumber: OWNER, dataMessage: undefined, receiptMessage: { isRead: true } }),
      envelope({ sourceNumber: OWNER, dataMessage: undefined, typingMessage: { action: "STARTED" } }),
    ];
    for (const e of dropped) assert.equal(await addresseeOf(e, { owner, access }), undefined);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
