import { SHARING_CASES, type SharingDriver } from "./_contract_support.ts";
import { discordDriver } from "./_discord_support.ts";
import { slackDriver } from "./_slack_support.ts";
import { telegramDriver } from "./_telegram_support.ts";

/** Each shareable connection's driver (ACS-7): the same cases run for every one. */
const DRIVERS: [string, () => Promise<SharingDriver>][] = [
  ["Telegram", telegramDriver],
  ["Slack", slackDriver],
  ["Discord", discordDriver],
];

for (const [platform, driver] of DRIVERS) {
  for (const c of SHARING_CASES) {
    Deno.test(`sharing on ${platform}: ${c.name}`, async () => {
      await using d = await driver();
      await c.run(d);
    });
  }
}
