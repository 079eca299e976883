/**
 * Discord's figures (issues 11, 25): a message reaching Discord (the fake's, dispatched on the gateway
 * at Discord's own heartbeat interval, 41.25 s) to the bridge's first POST of its answer, awake,
 * asleep, and sent while the gateway closed the session (4000) and the bridge resumes it, beside the
 * agent's own answer (bench/_connection_bench.ts).
 *
 * Run: `deno run -A bench/discord_bench.ts [messages]` (or `deno task bench discord`).
 * @module
 */
import { serveFakeDiscord } from "../tests/fakes/fake_discord.ts";
import { runCli } from "../tests/support/mod.ts";
import { measureConnection } from "./_connection_bench.ts";

async function main(count: number): Promise<void> {
  await using fake = await serveFakeDiscord();
  const owner = fake.user("ada");
  const dm = fake.dm(owner);
  /** Discord delivers nothing sent while the bot is not connected: wait for a live session first. */
  const live = () => fake.when(() => fake.sessions.some((s) => s.live));
  await measureConnection({
    message: "message",
    firstSend: "POST messages",
    async connect(home) {
      let sent = Promise.resolve();
      const args = ["agent", "connect", "discord", "--token", fake.token, "--api-url", fake.apiUrl, "--json"];
      const paired = await runCli(args, home, {
        onPrint: (v) => {
          const code = (v as { code?: unknown }).code;
          if (typeof code === "string") sent = live().then(() => void fake.userSays(dm, owner, code));
        },
      });
      await sent;
      if (paired.code !== 0) throw new Error(`lnk agent connect failed: ${paired.stderr}`);
    },
    async once() {
      await live();
      const sent = Date.now();
      fake.userSays(dm, owner, "hi");
      const call = await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === dm.id);
      return call.at - sent;
    },
    resume: {
      what: "while the gateway resumes (close 4000)",
      async once() {
        await live();
        fake.closeSockets(4000);
        const sent = Date.now();
        fake.userSays(dm, owner, "hi");
        const call = await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === dm.id);
        return call.at - sent;
      },
    },
  }, count);
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
