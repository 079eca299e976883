import assert from "node:assert/strict";
import { loadSettings } from "../../../core/agent/mod.ts";
import { newAgentKey } from "../../../core/base/mod.ts";
import { listenForWebhooks } from "../../../core/webhooks/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { loopbackSshd, NO_SSHD } from "./_sshd_support.ts";

if (NO_SSHD) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`tunnel tests ignored: ${NO_SSHD}`);
}

Deno.test({
  name:
    "WHK-8: lnk tunnel open --public --via ssh forwards the host's port to the 127.0.0.1 webhook listener, until stopped",
  ignore: NO_SSHD !== undefined,
  async fn() {
    await using sshd = await loopbackSshd();
    await using home = await tempHome();
    const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
    await runJson(["agent", "webhook", "add", "gh", "--sift", "github"], home);
    const settings = await loadSettings(home.paths, id);
    await using listener = await listenForWebhooks(home.paths, settings, { key: newAgentKey() });
    assert.equal(listener?.port, settings.webhooks?.port);

    const stop = new AbortController();
    const opened = Promise.withResolvers<{ url: string; local: number; webhooks: Record<string, string> }>();
    const args = [
      "tunnel",
      "open",
      "--public",
      "--via",
      "ssh",
      `${sshd.user}@127.0.0.1`,
      "--remote-port",
      "0",
    ];
    const running = runCli(
      [...args, ...sshd.sshOptions.flatMap((o) => ["--ssh-option", o]), "--json"],
      home,
      {
        signal: stop.signal,
        onPrint: (value) => opened.resolve(value as never),
      },
    );
    const open = await Promise.race([
      opened.promise,
      running.then((r) => Promise.reject(new Error(r.stdout + r.stderr))),
    ]);
    const remote = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(open.url)?.[1]);
    assert.ok(remote > 0 && remote !== listener?.port, open.url);
    assert.deepEqual(open.webhooks, { gh: `${open.url}/gh` });
    assert.equal(open.local, listener?.port);
    // Through sshd's side: the listener's own answers, an unsigned post refused by its sift.
    const res = await fetch(`${open.url}/gh`, { method: "POST", body: "{}" });
    assert.deepEqual([res.status, await res.text()], [
      401,
      "Refused: no X-Hub-Signature-256 of the form sha256=<hex>\n",
    ]);
    const unknown = await fetch(`${open.url}/nope`, { method: "POST", body: "{}" });
    assert.deepEqual([unknown.status, await unknown.text()], [404, ""]);
    stop.abort();
    assert.deepEqual(await running, {
      code: 0,
      stdout: `${JSON.stringify({ agent: "work", via: "ssh", ...open })}\n`,
      stderr: "",
    });
    await assert.rejects(fetch(`${open.url}/gh`, { method: "POST", body: "{}" }));
  },
});

Deno.test("WHK-8: a tunnel of an agent with no webhooks is refused, and one not said --public is a usage error", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const refused = await runCli(
    ["tunnel", "open", "--public", "--via", "ssh", "me@example.com", "--json"],
    home,
  );
  assert.equal(refused.code, 1);
  assert.deepEqual(JSON.parse(refused.stdout).error, {
    code: "REFUSED",
    message: 'Cannot open a tunnel for agent "work": it has no webhooks',
    hint: "Add one with `lnk agent webhook add <name> --sift github`",
  });
  const usage = await runCli(["tunnel", "open", "--via", "ssh", "me@example.com"], home);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /say --public and --via ssh or --via cloudflared/);
});

Deno.test("WHK-8: lnk tunnel open --public --via cloudflared runs the person's cloudflared for a quick tunnel to the listener and prints its address, until stopped (a stand-in cloudflared: the real one cannot be installed here)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  await runJson(["agent", "webhook", "add", "gh", "--sift", "github"], home);
  const bin = `${home.path}/bin`;
  await Deno.mkdir(bin);
  // What cloudflared prints on stderr as a quick tunnel opens, its arguments kept for the test.
  await Deno.writeTextFile(
    `${bin}/cloudflared`,
    [
      "#!/bin/sh",
      `echo "$@" > ${bin}/args`,
      'echo "2026-12-02T07:00:00Z INF Requesting new quick Tunnel on trycloudflare.com..." >&2',
      'echo "2026-12-02T07:00:01Z INF |  https://calm-lake-1234.trycloudflare.com  |" >&2',
      "exec sleep 600",
    ].join("\n") + "\n",
    { mode: 0o755 },
  );
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  const stop = new AbortController();
  const opened = Promise.withResolvers<{ url: string; local: number; webhooks: Record<string, string> }>();
  const running = runCli(["tunnel", "open", "--public", "--via", "cloudflared", "--json"], home, {
    signal: stop.signal,
    onPrint: (value) => opened.resolve(value as never),
  });
  const open = await Promise.race([
    opened.promise,
    running.then((r) => Promise.reject(new Error(r.stdout + r.stderr))),
  ]);
  assert.equal(open.url, "https://calm-lake-1234.trycloudflare.com");
  assert.deepEqual(open.webhooks, { gh: "https://calm-lake-1234.trycloudflare.com/gh" });
  assert.equal(
    (await Deno.readTextFile(`${bin}/args`)).trim(),
    `tunnel --no-autoupdate --url http://127.0.0.1:${open.local}`,
  );
  stop.abort();
  assert.equal((await running).code, 0);
});
