/**
 * Telegram's figures (issue 11): an update reaching the Bot API (the fake's) to the bridge's first
 * `sendMessage`, awake and asleep, beside the agent's own answer (bench/_connection_bench.ts).
 *
 * Run: `deno run -A bench/telegram_bench.ts [messages]` (or `deno task bench telegram`).
 * @module
 */
import { serveFakeTelegram } from "../tests/fakes/fake_telegram.ts";
import { runCli } from "../tests/support/mod.ts";
import { measureConnection } from "./_connection_bench.ts";

async function main(count: number): Promise<void> {
  await using fake = await serveFakeTelegram();
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  await measureConnection({
    message: "update",
    firstSend: "sendMessage",
    async connect(home) {
      const args = [
        "agent",
        "connect",
        "telegram",
        "--token",
        fake.token,
        "--api-root",
        fake.apiRoot,
        "--json",
      ];
      const paired = await runCli(args, home, {
        onPrint: (v) => {
          const code = (v as { code?: unknown }).code;
          if (typeof code === "string") fake.userSays(chat, owner, code);
        },
      });
      if (paired.code !== 0) throw new Error(`lnk agent connect failed: ${paired.stderr}`);
    },
    async once() {
      const sent = Date.now();
      fake.userSays(chat, owner, "hi");
      const call = await fake.nextCall("sendMessage", (c) => c.params.chat_id === chat.id);
      return call.at - sent;
    },
  }, count);
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
