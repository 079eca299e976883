/** What the tests of `lnk agent connect discord` share: the pairing, and waiting on the bot's answers. */
import assert from "node:assert/strict";
import type { FakeModel } from "../../fakes/fake_model.ts";
import type { APIGuild, APIUser } from "discord-api-types/v10";
import type { DiscordChannel, FakeDiscord } from "../../fakes/fake_discord.ts";
import { type CliResult, runCli, runJson, type TempHome } from "../../support/mod.ts";

export type Status = { state: string; connections: Record<string, { state: string; why?: string }> };

/**
 * Runs `lnk agent <args> --json` against the fake, `send(code)` told the code once it is printed
 * and the pairing's gateway session is ready: Discord delivers nothing sent before a bot connects,
 * and a person reads the code before they type it.
 */
export async function withCode(
  home: TempHome,
  fake: FakeDiscord,
  args: string[],
  send: (code: string) => void,
): Promise<CliResult> {
  const sessions = fake.sessions.length;
  let sent: Promise<void> = Promise.resolve();
  const result = await runCli(["agent", ...args, "--json"], home, {
    onPrint: (value) => {
      const code = (value as { code?: unknown }).code;
      if (typeof code !== "string") return;
      sent = fake.when(() => fake.sessions.length > sessions).then(() => send(code));
    },
  });
  await sent;
  return result;
}

/**
 * Waits until the bridge's gateway session is live: Discord delivers nothing sent while a bot is not
 * connected (the connection catches up from a channel's history only for channels it knows).
 */
export async function carried(fake: FakeDiscord): Promise<void> {
  await fake.when(() => fake.sessions.some((s) => s.live));
}

/** The bot's messages in a channel as they now read, oldest first. */
export function fromBot(fake: FakeDiscord, channel: string): string[] {
  return fake.messages(channel).filter((m) => m.author.id === fake.bot.id).map((m) => m.content);
}

/** Waits until the bot's last message in the channel reads `text`: posted, then edited as it streams. */
export async function answered(fake: FakeDiscord, channel: string, text: string): Promise<void> {
  await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === channel);
  while (fromBot(fake, channel).at(-1) !== text) await fake.nextCall("PATCH /channels/:id/messages/:mid");
}

/** An agent on the fake model, paired on Discord with its owner Ada. */
/** An agent paired on the fake: its owner Ada, a stranger Eve, Ada's DM, and a guild's channel. */
export interface PairedAgent {
  id: string;
  owner: APIUser;
  stranger: APIUser;
  ownDm: DiscordChannel;
  guild: APIGuild;
  general: DiscordChannel;
  /** What `lnk agent connect discord --json` printed, a line each. */
  // deno-lint-ignore no-explicit-any -- each line is read by the field a test names
  lines: any[];
}

export async function pairedAgent(
  home: TempHome,
  fake: FakeDiscord,
  model: FakeModel,
  options: { beforePairing?: (owner: APIUser, dm: DiscordChannel) => void } = {},
): Promise<PairedAgent> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("ada");
  const stranger = fake.user("eve");
  const ownDm = fake.dm(owner);
  options.beforePairing?.(owner, ownDm);
  const guild = fake.guild("Home");
  const general = fake.channel(guild, "general");
  const paired = await withCode(
    home,
    fake,
    ["connect", "discord", "--token", fake.token, "--api-url", fake.apiUrl],
    (code) => {
      fake.userSays(fake.dm(stranger), stranger, "000000"); // a guess: never the owner
      fake.userSays(general, stranger, code, { mentionBot: true }); // the code in a channel: never
      fake.userSays(ownDm, owner, code);
    },
  );
  assert.equal(paired.code, 0, paired.stderr);
  return {
    id,
    owner,
    stranger,
    ownDm,
    guild,
    general,
    lines: paired.stdout.trim().split("\n").map((l) => JSON.parse(l)),
  };
}

/** Waits until the connection's state, as `lnk agent status` reads it, is `state`; returns its why. */
export async function untilConnectionState(
  home: TempHome,
  id: string,
  state: string,
): Promise<string | undefined> {
  const dir = home.paths.connectionDir(id, "discord");
  using watcher = Deno.watchFs(dir);
  const changes = watcher[Symbol.asyncIterator]();
  for (;;) {
    const status = await runJson<Status>(["agent", "status"], home);
    const now = status.connections.discord;
    if (now?.state === state) return now.why;
    await changes.next();
  }
}
