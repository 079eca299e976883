/**
 * Slack's figures (issue 11): an event reaching Slack (the fake's, sent on the Socket Mode socket)
 * to the bridge's first `chat.postMessage`, awake and asleep, beside the agent's own answer
 * (bench/_connection_bench.ts).
 *
 * Run: `deno run -A bench/slack_bench.ts [messages]` (or `deno task bench slack`).
 * @module
 */
import { serveFakeSlack } from "../tests/fakes/fake_slack.ts";
import { runCli } from "../tests/support/mod.ts";
import { measureConnection } from "./_connection_bench.ts";

async function main(count: number): Promise<void> {
  await using fake = await serveFakeSlack();
  const owner = fake.user("ada");
  const dm = fake.dm(owner);
  await measureConnection({
    message: "event",
    firstSend: "chat.postMessage",
    async connect(home) {
      const args = [
        "agent",
        "connect",
        "slack",
        "--bot-token",
        fake.botToken,
        "--app-token",
        fake.appToken,
        "--api-url",
        fake.apiUrl,
        "--json",
      ];
      const paired = await runCli(args, home, {
        onPrint: (v) => {
          const code = (v as { code?: unknown }).code;
          if (typeof code === "string") fake.userSays(dm, owner, code);
        },
      });
      if (paired.code !== 0) throw new Error(`lnk agent connect failed: ${paired.stderr}`);
    },
    async once() {
      const sent = Date.now();
      fake.userSays(dm, owner, "hi");
      const call = await fake.nextCall("chat.postMessage", (c) => c.params.channel === dm.id);
      return call.at - sent;
    },
  }, count);
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
