/**
 * The attack suite, webhooks (WHK-1, WHK-4, WHK-5): each test one attempt from inside the agent's
 * real sandbox, as its harness runs (`lnk agent harness run`), at what a webhook holds outside it:
 * its secrets and the ids it took, and its listener on this machine's 127.0.0.1. Run as root here
 * and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runJson, runLnk, type TempHome, tempHome } from "../support/mod.ts";
import { NO_BWRAP } from "../support/sandbox.ts";

/** Runs `script` in the agent's sandbox as its harness would, `stdin` given; its stdout and code. */
async function inside(home: TempHome, script: string, stdin = ""): Promise<{ code: number; stdout: string }> {
  const r = await runLnk(["agent", "harness", "run", "--", "sh", "-c", script], home, { stdin });
  return { code: r.code, stdout: r.stdout };
}

/** An agent with a webhook `gh` rolled once: two secrets, and an id taken. */
async function withWebhook(home: TempHome) {
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const added = await runJson<{ url: string; secret: string }>([
    "agent",
    "webhook",
    "add",
    "gh",
    "--sift",
    "github",
  ], home);
  const rolled = await runJson<{ secret: string }>(["agent", "webhook", "roll", "gh"], home);
  const folder = join(home.paths.agentState(id), "webhooks");
  await Deno.mkdir(join(folder, "gh", "seen"), { recursive: true });
  await Deno.writeTextFile(join(folder, "gh", "seen", "0".repeat(64)), "2025-01-01T00:00:00.000Z\n");
  return { id, url: added.url, folder, secrets: [added.secret, rolled.secret] };
}

const ignore = NO_BWRAP !== undefined;

Deno.test({
  name:
    "attack: read a webhook's secrets from inside the sandbox, in the environment, in any file it can read, or by their files' names (WHK-5)",
  ignore,
  async fn() {
    await using home = await tempHome();
    const hook = await withWebhook(home);
    // The secrets come on stdin, so no command line names them.
    const found = await inside(
      home,
      'while read -r s; do env | grep -cF "$s"; grep -rlsF "$s" "$HOME" /tmp /run /var /etc /opt /srv /mnt /media 2>/dev/null; done; ' +
        "find / -xdev \\( -name previous.json -o -path '*/.lnk/agents/*' \\) 2>/dev/null; echo end",
      hook.secrets.join("\n") + "\n",
    );
    assert.deepEqual(found, { code: 0, stdout: "0\n0\nend\n" });
  },
});

Deno.test({
  name:
    "attack: list, read or plant into the webhooks folder from inside the sandbox by its own path (WHK-6)",
  ignore,
  async fn() {
    await using home = await tempHome();
    const hook = await withWebhook(home);
    // A taken id planted there would refuse a real post as a repeat; a secret planted would be taken.
    const r = await inside(
      home,
      `ls -R "${hook.folder}" 2>/dev/null; cat "${hook.folder}/gh/secret" "${hook.folder}/gh/previous.json" 2>/dev/null; ` +
        `mkdir -p "${hook.folder}/gh/seen" 2>/dev/null && echo planted > "${hook.folder}/gh/seen/${
          "1".repeat(64)
        }" 2>/dev/null; ` +
        `echo mine > "${hook.folder}/gh/secret" 2>/dev/null; echo end`,
    );
    assert.equal(r.code, 0);
    for (const secret of hook.secrets) assert.ok(!r.stdout.includes(secret), "a secret was read");
    assert.ok(!/previous|seen|secret/.test(r.stdout), r.stdout);
    await assert.rejects(Deno.stat(join(hook.folder, "gh", "seen", "1".repeat(64))), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(join(hook.folder, "gh", "secret")), `${hook.secrets[1]}\n`);
  },
});

Deno.test({
  name:
    "attack: post to the agent's own webhook listener on the loopback from inside the sandbox (WHK-1, WHK-4)",
  ignore,
  async fn() {
    await using home = await tempHome();
    const hook = await withWebhook(home);
    const port = new URL(hook.url).port;
    // The listener is this machine's 127.0.0.1; the sandbox's loopback is its own.
    await using _listener = Deno.listen({ hostname: "127.0.0.1", port: Number(port) });
    const r = await inside(
      home,
      `bash -c '(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo open || echo unreachable'`,
    );
    assert.deepEqual(r, { code: 0, stdout: "unreachable\n" });
  },
});
