/**
 * The attack suite, connections (CON-12, CON-14): each test one attempt from inside the agent's
 * real sandbox, as its harness runs (`lnk agent harness run`), at what a carried connection holds
 * outside it: its tokens, its folder (the kept updates, the offset, the held answers), and the
 * platform's API itself. Run as root here and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { serveFakeTelegram } from "../fakes/fake_telegram.ts";
import { serveFakeSlack } from "../fakes/fake_slack.ts";
import { runCli, runJson, runLnk, type TempHome, tempHome } from "../support/mod.ts";
import { NO_BWRAP } from "../support/sandbox.ts";

/** Runs `lnk agent connect <args> --json`, `send(code)` told the code once it is printed. */
async function connect(home: TempHome, args: string[], send: (code: string) => void): Promise<void> {
  const result = await runCli(["agent", "connect", ...args, "--json"], home, {
    onPrint: (value) => {
      const code = (value as { code?: unknown }).code;
      if (typeof code === "string") send(code);
    },
  });
  assert.equal(result.code, 0, result.stderr);
}

/** Runs `script` in the agent's sandbox as its harness would, `stdin` given; its stdout and code. */
async function inside(home: TempHome, script: string, stdin = ""): Promise<{ code: number; stdout: string }> {
  const r = await runLnk(["agent", "harness", "run", "--", "sh", "-c", script], home, { stdin });
  return { code: r.code, stdout: r.stdout };
}

/** An agent with Telegram and Slack both paired against fakes: what each attack starts from. */
async function connected(home: TempHome) {
  const telegram = await serveFakeTelegram();
  const slack = await serveFakeSlack();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const ada = telegram.user("Ada");
  await connect(
    home,
    ["telegram", "--token", telegram.token, "--api-root", telegram.apiRoot],
    (code) => telegram.userSays(telegram.privateChat(ada), ada, code),
  );
  const owner = slack.user("ada");
  await connect(
    home,
    ["slack", "--bot-token", slack.botToken, "--app-token", slack.appToken, "--api-url", slack.apiUrl],
    (code) => slack.userSays(slack.dm(owner), owner, code),
  );
  return {
    id,
    telegram,
    slack,
    tokens: [telegram.token, slack.botToken, slack.appToken],
    folder: home.paths.connectionDir(id, "telegram").replace(/\/telegram$/, ""),
    async [Symbol.asyncDispose]() {
      await telegram[Symbol.asyncDispose]();
      await slack[Symbol.asyncDispose]();
    },
  };
}

const ignore = NO_BWRAP !== undefined;

Deno.test({
  name:
    "attack: read a connection's tokens from inside the sandbox, by name, in the environment, in any file it can write or its system holds (CON-12)",
  ignore,
  async fn() {
    await using home = await tempHome();
    await using fx = await connected(home);
    // The tokens come on stdin, so no command line names them.
    const found = await inside(
      home,
      'while read -r t; do env | grep -cF "$t"; grep -rlsF "$t" "$HOME" /tmp /run /var /etc /opt /srv /mnt /media 2>/dev/null; done; ' +
        "find / -xdev \\( -name bot-token -o -name app-token \\) 2>/dev/null; echo end",
      fx.tokens.join("\n") + "\n",
    );
    assert.deepEqual(found, { code: 0, stdout: "0\n0\n0\nend\n" });
  },
});

Deno.test({
  name:
    "attack: list, read or plant into the connections folder from inside the sandbox by its own path (CON-14)",
  ignore,
  async fn() {
    await using home = await tempHome();
    await using fx = await connected(home);
    // Whatever it makes at that path is its own (a folder of the sandbox's), never the real one.
    const r = await inside(
      home,
      `ls -R "${fx.folder}" 2>/dev/null; cat "${fx.folder}/telegram/bot-token" "${fx.folder}/slack/app-token" 2>/dev/null; ` +
        `mkdir -p "${fx.folder}/telegram/inbox" 2>/dev/null && echo planted > "${fx.folder}/telegram/inbox/9.json" 2>/dev/null; ` +
        "echo end",
    );
    assert.equal(r.code, 0);
    for (const token of fx.tokens) assert.ok(!r.stdout.includes(token), "a token was read");
    assert.ok(!/bot-token|app-token|offset|state\.json/.test(r.stdout), r.stdout);
    await assert.rejects(Deno.stat(`${fx.folder}/telegram/inbox/9.json`), Deno.errors.NotFound);
  },
});

Deno.test({
  name:
    "attack: reach the platform's API on the loopback from inside the sandbox, around the bridge (CON-12)",
  ignore,
  async fn() {
    await using home = await tempHome();
    await using fx = await connected(home);
    const callsBefore = fx.telegram.calls.length;
    const port = new URL(fx.telegram.apiRoot).port;
    const slackPort = new URL(fx.slack.apiUrl).port;
    const tcp = (p: string) =>
      `(exec 3<>/dev/tcp/127.0.0.1/${p}) 2>/dev/null && echo open-${p} || echo unreachable`;
    const r = await inside(home, `bash -c '${tcp(port)}; ${tcp(slackPort)}'`);
    assert.deepEqual(r, { code: 0, stdout: "unreachable\nunreachable\n" });
    assert.equal(fx.telegram.calls.length, callsBefore);
  },
});
