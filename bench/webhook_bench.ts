/**
 * Webhooks' figures (issue 12): a signed GitHub post to the agent's listener until its 202 and until
 * the model's first request for it, awake and asleep (its door wakes it), beside the agent's own
 * answer (`lnk agent chat send`) measured in the same run; and what a refused post (a wrong
 * signature, 401) costs. The model is the fake of tests/fakes answering at once; nothing leaves
 * this machine.
 *
 * Run: `deno run -A bench/webhook_bench.ts [posts]` (or `deno task bench webhook`).
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, serviceLog, tempHome, waitForLog } from "../tests/support/mod.ts";
import { line, p50, percentile } from "./_figures.ts";

const BODY = '{"ref":"refs/heads/main"}';

/** A GitHub post's headers, signed with `secret` as GitHub signs: HMAC-SHA256 of the body. */
async function githubHeaders(
  secret: string,
  body: string,
  delivery: string,
): Promise<Record<string, string>> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  return { "X-GitHub-Event": "push", "X-GitHub-Delivery": delivery, "X-Hub-Signature-256": `sha256=${hex}` };
}

async function main(count: number): Promise<void> {
  setLogSink(() => {}); // what the commands run in this process log is not the figures
  await using model = await serveFakeModel({ defaultText: "Noted." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const hook = await runJson<{ url: string; secret: string }>([
    "agent",
    "webhook",
    "add",
    "gh",
    "--sift",
    "github",
  ], home);
  let delivery = 0;
  const post = async (): Promise<{ accepted: number; asked: number }> => {
    const headers = await githubHeaders(hook.secret, BODY, `d-${++delivery}`);
    const start = performance.now();
    const asked = model.nextRequest().then(() => performance.now() - start);
    const res = await fetch(hook.url, { method: "POST", body: BODY, headers });
    const accepted = performance.now() - start;
    await res.body?.cancel();
    if (res.status !== 202) throw new Error(`The post was answered ${res.status}`);
    return { accepted, asked: await asked };
  };
  const own = async (): Promise<number> => {
    const start = performance.now();
    const result = await runCli(["agent", "chat", "send", "hi"], home);
    if (result.code !== 0) throw new Error(`lnk agent chat send failed: ${result.stderr}`);
    await model.nextRequest();
    return performance.now() - start;
  };
  line(`fake model on the loopback; Link Harness, sandbox on; n=${count} each, interleaved`);
  try {
    await runJson(["agent", "start"], home);
    await post(); // the harness has served once
    const awake = { accepted: [] as number[], asked: [] as number[], own: [] as number[] };
    for (let i = 0; i < count; i++) {
      const p = await post();
      awake.accepted.push(p.accepted);
      awake.asked.push(p.asked);
      awake.own.push(await own());
    }
    const refused: number[] = [];
    for (let i = 0; i < count * 10; i++) {
      const headers = await githubHeaders("not-the-secret", BODY, `bad-${i}`);
      const start = performance.now();
      const res = await fetch(hook.url, { method: "POST", body: BODY, headers });
      await res.body?.cancel();
      refused.push(performance.now() - start);
    }
    await runJson(["agent", "stop"], home);
    const { layoutOf, loadSettings } = await import("../core/agent/mod.ts");
    const spec = layoutOf(home.paths, await loadSettings(home.paths, id)).specToml;
    await Deno.writeTextFile(
      spec,
      (await Deno.readTextFile(spec)).replace(/^idle_after = .*$/m, 'idle_after = "1s"'),
    );
    await runJson(["agent", "start"], home);
    const log = serviceLog(home, "bridge", id);
    const asleep = { accepted: [] as number[], asked: [] as number[] };
    for (let i = 0; i < count; i++) {
      await waitForLog(log, (e) => e.msg === "Agent asleep", i + 1);
      const p = await post();
      asleep.accepted.push(p.accepted);
      asleep.asked.push(p.asked);
    }
    line(
      `agent's own answer (lnk agent chat send to its whole answer, awake): p50 ${
        p50(awake.own).toFixed(1)
      } ms`,
    );
    line(
      `refused post (wrong signature, 401): p50 ${p50(refused).toFixed(2)} ms, p99 ${
        percentile(refused, 99).toFixed(2)
      } ms (n=${refused.length})`,
    );
    line(
      `post to 202, asleep: p50 ${p50(asleep.accepted).toFixed(0)} ms; to the model's request: p50 ${
        p50(asleep.asked).toFixed(0)
      } ms`,
    );
    line(
      `post to 202, awake: p50 ${p50(awake.accepted).toFixed(1)} ms; to the model's request: p50 ${
        p50(awake.asked).toFixed(1)
      } ms (${(p50(awake.asked) / p50(awake.own)).toFixed(2)}x the agent's own answer)`,
    );
  } finally {
    await runCli(["agent", "stop"], home);
  }
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
