import assert from "node:assert/strict";
import { join } from "node:path";
import { filesStore, type OpenStore, sqliteStore } from "../../../../core/harness/store/mod.ts";
import { denoScript } from "../../../support/store_driver.ts";
import { leaseOf } from "../../../support/store_contract.ts";

const ROUNDS = 200;
const LAPSE = 60_000;

/** A racer process (_race_child.ts): send it a line, read its one-line answer. */
function startRacer(kind: string, root: string) {
  const [exe, ...args] = denoScript(new URL("./_race_child.ts", import.meta.url), [kind, root]);
  const child = new Deno.Command(exe!, { args, stdin: "piped", stdout: "piped", stderr: "inherit" }).spawn();
  const input = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    pid: child.pid,
    async ask(line: string): Promise<string> {
      await input.write(new TextEncoder().encode(`${line}\n`));
      while (!buffer.includes("\n")) {
        const { done, value } = await lines.read();
        if (done) throw new Error(`racer ${child.pid} exited`);
        buffer += value;
      }
      const answer = buffer.slice(0, buffer.indexOf("\n"));
      buffer = buffer.slice(buffer.indexOf("\n") + 1);
      return answer;
    },
    async [Symbol.asyncDispose]() {
      await input.close().catch(() => {});
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}

async function raceRounds(kind: "files" | "sqlite", root: string, open: () => OpenStore): Promise<void> {
  await using seeder = open();
  await using a = startRacer(kind, root);
  await using b = startRacer(kind, root);
  const wins = { [a.pid]: 0, [b.pid]: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const conversation = `race:${round}`;
    // A dead process's lease, renewed at 0: lapsed for both racers at exactly the lapse.
    await seeder.leaseTake(conversation, leaseOf(1, "dead", 0), { lapseMs: LAPSE, nowMs: 0 });
    const took = await Promise.all([
      a.ask(`take ${conversation} ${LAPSE}`),
      b.ask(`take ${conversation} ${LAPSE}`),
    ]);
    assert.deepEqual([...took].sort(), ["lost", "won"], `round ${round}: ${took}`);
    const winner = took[0] === "won" ? a.pid : b.pid;
    wins[winner]!++;
    assert.equal((await seeder.leaseRead(conversation))?.holder.pid, winner, `round ${round}`);
    const wrote = await Promise.all([a.ask(`append ${conversation} 1`), b.ask(`append ${conversation} 1`)]);
    assert.deepEqual([...wrote].sort(), ["conflict", "ok"], `round ${round}: ${wrote}`);
  }
  assert.equal(wins[a.pid]! + wins[b.pid]!, ROUNDS);
}

Deno.test(`filesStore() turn.take: two processes racing for a lapsed lease, ${ROUNDS} rounds, exactly one winner each (TRN-7, TRN-8)`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-race-" });
  try {
    const root = join(dir, "chats");
    await raceRounds("files", root, () => filesStore(root));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(`sqliteStore() turn.take: two processes racing for a lapsed lease, ${ROUNDS} rounds, exactly one winner each (TRN-7, TRN-8)`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-race-" });
  try {
    const path = join(dir, "chats.db");
    await raceRounds("sqlite", path, () => sqliteStore(path));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
