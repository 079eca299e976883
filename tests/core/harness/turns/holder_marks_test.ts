import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CLEAR_DEAD_AFTER_MS,
  holderGone,
  holdMark,
  markName,
  markSaysDead,
} from "../../../../core/harness/turns/holder_marks.ts";
import { thisHolder } from "../../../../core/harness/mod.ts";
import type { LeaseHolder } from "../../../../core/harness/store/mod.ts";

/** A holder of another sandbox: another PID namespace, where its pid says nothing here. */
const ELSEWHERE: LeaseHolder = { boot: `${thisHolder().boot.split("/")[0]}/pid:[1]`, pid: 2, start: "77" };

/** A child process holding the mark of `holder` in `dir`, as that holder's harness would, until killed. */
async function markedByChild(dir: string, holder: LeaseHolder): Promise<Marker> {
  const path = join(dir, markName(holder));
  const script = `const f = await Deno.open(${JSON.stringify(path)}, { create: true, write: true });
await f.lock(true); console.log("locked"); await Deno.stdin.readable.pipeTo(new WritableStream());`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "locked\n");
  return { child, reader };
}

interface Marker {
  child: Deno.ChildProcess;
  reader: ReadableStreamDefaultReader<string>;
}

async function kill({ child, reader }: Marker): Promise<void> {
  child.kill("SIGKILL");
  await child.status;
  await child.stdin.close().catch(() => {});
  await reader.cancel();
}

Deno.test("holderGone() tells a dead holder of another PID namespace by its mark, and a live one too (item 13)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // No mark (a holder from before marks): it cannot tell, so the lapse is waited out as before.
    assert.equal(await markSaysDead(dir, ELSEWHERE), undefined);
    assert.equal(await holderGone(ELSEWHERE, dir), false);
    const child = await markedByChild(dir, ELSEWHERE);
    assert.equal(await holderGone(ELSEWHERE, dir), false, "a holder whose mark is held lives");
    await kill(child); // kill -9: the kernel lets go of its lock
    assert.equal(await holderGone(ELSEWHERE, dir), true);
    assert.equal(await holderGone(ELSEWHERE, undefined), false, "without marks kept, it cannot tell");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("holdMark() holds this process's mark, so it is never judged dead, and lets it go at release", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const mark = await holdMark(dir, Date.now());
    const again = await holdMark(dir, Date.now());
    const me = thisHolder();
    assert.equal(await markSaysDead(dir, me), false);
    await mark.release();
    assert.equal(await markSaysDead(dir, me), false, "held while one holder in this process holds it");
    await again.release();
    assert.equal(await markSaysDead(dir, me), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("holdMark() clears dead marks untouched for a week, and keeps a newer one for its lease's taker", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const old = { ...ELSEWHERE, pid: 3 };
    const recent = { ...ELSEWHERE, pid: 4 };
    for (const holder of [old, recent]) await kill(await markedByChild(dir, holder));
    const now = Date.now();
    const weekAgo = new Date(now - CLEAR_DEAD_AFTER_MS - 1000);
    await Deno.utime(join(dir, markName(old)), weekAgo, weekAgo);
    const mark = await holdMark(dir, now);
    assert.equal(await markSaysDead(dir, old), undefined);
    assert.equal(await markSaysDead(dir, recent), true);
    await mark.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
