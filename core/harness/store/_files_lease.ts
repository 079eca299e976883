import { atomicWrite, joinPath, readTextIfExists } from "../../base/mod.ts";
import { Lease } from "./contract.ts";
import { checkJudgement, checkTime, type LeaseJudgement, mayTake, sameHolding } from "./lease_rules.ts";
import { parseStoredJson } from "./stored_json.ts";
import { namesIn, removeStaleTemps } from "./_files_temps.ts";

/** The lease of a conversation folder as stored in `turn.json` (TRN-1), or undefined when free. */
export async function readTurnFile(folder: string): Promise<Lease | undefined> {
  const path = joinPath(folder, "turn.json");
  const text = await readTextIfExists(path);
  return text === undefined ? undefined : parseStoredJson(Lease, text, `"${path}"`);
}

/**
 * turn.take on `turn.json` (TRN-7): judged and written while holding the folder's turn lock. The
 * folder's stale temp files (a `turn.json` or `tools.json` write killed mid-way) go on the way.
 */
export async function takeTurnFile(
  folder: string,
  lease: Lease,
  judgement: LeaseJudgement,
): Promise<Lease | undefined> {
  checkJudgement(judgement);
  return await withTurnLock(folder, async () => {
    await removeStaleTemps(folder, await namesIn(folder), judgement.nowMs);
    if (!mayTake(await readTurnFile(folder), judgement)) return undefined;
    const taken = { ...lease, renewed_at_ms: judgement.nowMs };
    await atomicWrite(joinPath(folder, "turn.json"), `${JSON.stringify(taken)}\n`);
    return taken;
  });
}

/** Renews `turn.json` if it still holds this lease. */
export async function renewTurnFile(folder: string, lease: Lease, nowMs: number): Promise<boolean> {
  checkTime(nowMs);
  return await withTurnLock(folder, async () => {
    const current = await readTurnFile(folder);
    if (current === undefined || !sameHolding(current, lease)) return false;
    await atomicWrite(
      joinPath(folder, "turn.json"),
      `${JSON.stringify({ ...lease, renewed_at_ms: nowMs })}\n`,
    );
    return true;
  });
}

/** Removes `turn.json` if it still holds this lease. */
export async function releaseTurnFile(folder: string, lease: Lease): Promise<void> {
  return await withTurnLock(folder, async () => {
    const current = await readTurnFile(folder);
    if (current === undefined || !sameHolding(current, lease)) return;
    await Deno.remove(joinPath(folder, "turn.json")).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  });
}

/**
 * Runs `fn` holding an exclusive flock(2) on the folder's `turn.lock`: one holder at a time across
 * processes, and across opens in one process. The kernel lets go when the holder closes or dies, so
 * a crashed taker never blocks the next one. The lock file itself is never removed, since
 * removing it would let two takers lock two different files.
 */
async function withTurnLock<T>(folder: string, fn: () => Promise<T>): Promise<T> {
  await Deno.mkdir(folder, { recursive: true });
  const file = await Deno.open(joinPath(folder, "turn.lock"), { read: true, write: true, create: true });
  try {
    await file.lock(true);
    return await fn();
  } finally {
    file.close();
  }
}
