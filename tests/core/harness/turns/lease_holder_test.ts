import assert from "node:assert/strict";
import { holderIsDead, thisHolder } from "../../../../core/harness/mod.ts";

async function endedChild(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("holderIsDead() is true only for a process of this boot and PID namespace that is gone (U-13)", async () => {
  const me = thisHolder();
  assert.match(me.boot, /^[0-9a-f-]+\/pid:\[\d+\]$/);
  const pid = await endedChild();
  assert.equal(holderIsDead({ boot: me.boot, pid, start: "1" }), true);
  // A pid in use by another process than the holder's (a start of its own) is the holder gone too.
  assert.equal(holderIsDead({ boot: me.boot, pid: Deno.pid, start: "not-this-start" }), true);
  assert.equal(holderIsDead(me), false);
  // In another PID namespace (another sandbox) or another boot, a pid says nothing: never dead by it.
  const [boot] = me.boot.split("/");
  assert.equal(holderIsDead({ boot: `${boot}/pid:[1]`, pid, start: "1" }), false);
  assert.equal(holderIsDead({ boot: "another-boot/pid:[1]", pid, start: "1" }), false);
});
