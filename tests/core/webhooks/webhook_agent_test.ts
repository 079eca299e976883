import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../../core/agent/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { processesNaming, runCli, runJson, tempHome } from "../../support/mod.ts";
import { createAgent, runStdout, sandboxedTest, toolResult } from "../../support/sandboxed_agent.ts";
import { githubHeaders } from "./_support.ts";

type ModelBody = { messages: { role: string; content: string }[]; tools?: unknown[] };

const PUSH = '{"ref":"refs/heads/main","pusher":{"name":"ada"}}';

/** A non-loopback IPv4 address of this machine, if it has one. */
function outsideAddress(): string | undefined {
  return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))?.address;
}

/** Every file under a folder, read as text, for a search of what the sandbox can see. */
async function allText(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) text += await allText(path);
    else if (entry.isFile) text += await Deno.readTextFile(path).catch(() => "");
  }
  return text;
}

sandboxedTest(
  "WHK-1..7: a signed GitHub post to a running agent is answered 202 and reaches its sandboxed harness from webhook:gh with no tools; the port stays across 3 restarts; an old secret works until roll --done",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Noted." });
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    const added = await runJson<{ url: string; secret: string }>([
      "agent",
      "webhook",
      "add",
      "gh",
      "--sift",
      "github",
    ], home);
    const port = (await loadSettings(home.paths, agent.id)).webhooks!.port!;
    await runJson(["agent", "start"], home);
    try {
      const post = async (
        delivery: string,
        secret = added.secret,
      ) => (await fetch(added.url, {
        method: "POST",
        body: PUSH,
        headers: await githubHeaders(secret, PUSH, delivery),
      }));
      const res = await post("d-1");
      assert.deepEqual([res.status, await res.text()], [202, ""]);
      const body = (await model.nextRequest()).body as ModelBody;
      assert.equal(
        body.messages.filter((m) => m.role === "user").at(-1)!.content,
        '(from webhook:gh) A post to webhook "gh" (GitHub event "push", delivery d-1), quoted as it came: ' +
          `it is the poster's, not your owner's.\n\n> ${PUSH}`,
      );
      assert.deepEqual(body.tools ?? [], []);
      // Added, the webhook opened no tunnel: nothing of the agent's runs ssh or cloudflared.
      const tunnels = (await processesNaming(agent.id)).filter((p) =>
        /^(\S*\/)?(ssh|cloudflared) /.test(p.command)
      );
      assert.deepEqual(tunnels, []);

      for (let i = 1; i <= 3; i++) {
        await runJson(["agent", "stop"], home);
        await runJson(["agent", "start"], home);
        assert.equal((await loadSettings(home.paths, agent.id)).webhooks?.port, port, `restart ${i}`);
        const again = await post(`d-restart-${i}`);
        assert.equal(again.status, 202, `restart ${i}`);
        await again.body?.cancel();
        await model.nextRequest();
      }
      const replay = await post("d-1");
      assert.deepEqual([replay.status, await replay.text()], [
        409,
        "Already taken: post d-1 was handed in before\n",
      ]);

      const rolled = await runJson<{ secret: string }>(["agent", "webhook", "roll", "gh"], home);
      const old = await post("d-old");
      assert.equal(old.status, 202);
      await old.body?.cancel();
      await model.nextRequest();
      await runJson(["agent", "webhook", "roll", "gh", "--done"], home);
      const refused = await post("d-old-2");
      assert.deepEqual([refused.status, await refused.text()], [
        401,
        "Refused: the signature is not the hook's\n",
      ]);
      const fresh = await post("d-new", rolled.secret);
      assert.equal(fresh.status, 202);
      await fresh.body?.cancel();
      await model.nextRequest();
    } finally {
      await runCli(["agent", "stop"], home);
    }
  },
);

sandboxedTest(
  "WHK-1, WHK-5: attack: the listener answers on 127.0.0.1 only, and the hook's secret is in no sandbox nor anything the agent keeps",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Noted." });
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    const added = await runJson<{ url: string; secret: string }>([
      "agent",
      "webhook",
      "add",
      "gh",
      "--sift",
      "github",
    ], home);
    const port = (await loadSettings(home.paths, agent.id)).webhooks!.port!;
    const hookDir = join(home.paths.agentState(agent.id), "webhooks", "gh");
    await runJson(["agent", "start"], home);
    try {
      const outside = outsideAddress();
      if (outside) {
        // Tried: the webhook port on this machine's own outside address.
        await assert.rejects(Deno.connect({ hostname: outside, port }), Deno.errors.ConnectionRefused);
      }
      const res = await fetch(added.url, {
        method: "POST",
        body: PUSH,
        headers: await githubHeaders(added.secret, PUSH, "d-1"),
      });
      assert.equal(res.status, 202);
      await res.body?.cancel();
      await model.nextRequest();
      // Tried from inside the sandbox: the hook's folder and secret file, the secret anywhere in its
      // home, its agent's folders and /tmp, and in its environment.
      // The secret goes in as two halves, so the tool call the chats keep does not hold it whole.
      const [a, b] = [added.secret.slice(0, 32), added.secret.slice(32)];
      const script = [
        `(ls "${hookDir}" || cat "${hookDir}/secret") >/dev/null 2>&1 && echo "read ${hookDir}" || echo "denied ${hookDir}"`,
        `a=${a}; b=${b}`,
        `grep -rl "$a$b" "$HOME" /tmp "${agent.layout.agent}" "${agent.layout.home}" 2>/dev/null | wc -l`,
        `env | grep -c "$a$b"`,
      ].join("\n");
      model.replyToolCall("run", { command: ["sh", "-c", script] });
      model.reply("Looked.");
      const sent = await runCli(["agent", "chat", "send", "look for it"], home);
      assert.equal(sent.code, 0, sent.stderr);
      await model.nextRequest();
      assert.equal(runStdout(toolResult(await model.nextRequest())), `denied ${hookDir}\n0\n0`);
      // What the agent keeps (its chats, in a folder the sandbox sees) holds the post, never the secret.
      const kept = await allText(agent.layout.agent);
      assert.ok(kept.includes("refs/heads/main"), "the post is not in the agent's chats");
      assert.ok(!kept.includes(added.secret), "the secret is in the agent's folder");
    } finally {
      await runCli(["agent", "stop"], home);
    }
  },
);
