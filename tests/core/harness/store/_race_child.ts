/**
 * One racer for race_test.ts: opens the files or SQLite driver on a shared root, then for each
 * line on stdin (`take <conversation> <nowMs>` or `append <conversation> <n>`) races for it and
 * answers one line (`won`/`lost`, `ok`/`conflict`). Its lease's holder carries its pid.
 */
import { filesStore, type OpenStore, sqliteStore } from "../../../../core/harness/store/mod.ts";

const [kind, root] = Deno.args;
await using store: OpenStore = kind === "sqlite" ? sqliteStore(root!) : filesStore(root!);
const out = Deno.stdout.writable.getWriter();
const say = (text: string) => out.write(new TextEncoder().encode(`${text}\n`));

let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
    const [op, conversation, number] = buffer.slice(0, nl).split(" ");
    buffer = buffer.slice(nl + 1);
    if (op === "take") {
      const lease = {
        holder: { boot: "race", pid: Deno.pid, start: "race" },
        turn: `turn-${Deno.pid}`,
        renewed_at_ms: 0,
      };
      const taken = await store.leaseTake(conversation!, lease, { lapseMs: 60_000, nowMs: Number(number) });
      await say(taken ? "won" : "lost");
    } else {
      const event = { type: "message" as const, text: `${Deno.pid}`, request: "race", at: 0 };
      await say(await store.append(conversation!, Number(number), event));
    }
  }
}
out.releaseLock();
