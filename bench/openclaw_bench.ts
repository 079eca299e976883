/**
 * The real OpenClaw (`openclaw acp` and its gateway under the hub, harness openclaw) inside Link,
 * beside Link Harness measured in the same run and OpenClaw's own figures measured bare (5.9 s to
 * health, about 965 MB idle):
 *
 * - first start to first answer: from `lnk agent start` of a new agent until its first `lnk agent
 *   chat send` has printed the answer (configure, `doctor --fix` once, the gateway, `openclaw acp`,
 *   its first model call to the fake model);
 * - start to health and to first answer, configured: the same for a start after the first, and the
 *   time from `lnk agent start` until its gateway said it was live in the sandbox;
 * - idle memory: the resident memory of every process in the agent's sandbox but bubblewrap's (the
 *   hub, the launcher, the gateway and `openclaw acp` with their children) once the answer is in.
 *
 * Run: `deno task bench openclaw` (or `deno run -A bench/openclaw_bench.ts [runs]`). OpenClaw is
 * found where the CI's setup installs it (tests/support/openclaw.ts) and seeded into the agent's
 * install folder; without it only Link Harness is measured, saying why. Nothing leaves this machine.
 * @module
 */
import { join } from "node:path";
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../tests/support/mod.ts";
import { NO_OPENCLAW, seedOpenClawInstall } from "../tests/support/openclaw.ts";
import { measure, sandboxRss } from "./acp_bench.ts";
import { line, p50 } from "./_figures.ts";

/** The figures OpenClaw's own start gives, measured bare (no sandbox, no Link). */
const BARE = { healthS: 5.9, idleMb: 965 };

interface OpenClawFigures {
  firstMs: number;
  healthMs: number;
  answerMs: number;
  idleKb: number;
}

/** One agent on OpenClaw: its first start, then `runs` starts more, each to its first answer. */
async function measureOpenClaw(runs: number): Promise<OpenClawFigures> {
  await using model = await serveFakeModel({ defaultText: "ok" });
  await using home = await tempHome();
  await seedOpenClawInstall(home.path);
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "b", "--harness", "openclaw", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const live = join(home.paths.agentState(id), "harnesses", "openclaw", ".lnk", "gateway_live.json");
  const once = async () => {
    const start = Date.now();
    await runJson(["agent", "start", "--agent", "b"], home);
    const sent = await runCli(["agent", "chat", "send", "--agent", "b", "hi"], home);
    if (sent.code !== 0 || sent.stdout.trim() !== "ok") {
      throw new Error(`chat send failed: ${sent.stdout}${sent.stderr}`);
    }
    const answerMs = Date.now() - start;
    const since = Date.parse((JSON.parse(await Deno.readTextFile(live)) as { since: string }).since);
    return { answerMs, healthMs: since - start };
  };
  const first = await once();
  const idles = [await sandboxRss(home)];
  await runJson(["agent", "stop", "--agent", "b"], home);
  const healths: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await once();
    healths.push(run.healthMs);
    answers.push(run.answerMs);
    idles.push(await sandboxRss(home));
    await runJson(["agent", "stop", "--agent", "b"], home);
  }
  return { firstMs: first.answerMs, healthMs: p50(healths), answerMs: p50(answers), idleKb: p50(idles) };
}

/** Measures and prints the figures; returns them for callers that want them. */
export async function main(runs = 3): Promise<Record<string, number>> {
  const restore = setLogSink(() => {});
  try {
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const mib = (kb: number) => (kb / 1024).toFixed(1);
    const link = await measure([], runs);
    line(`Link Harness, start to first answer, n=${runs}: p50 ${s(link.firstMs)} s`);
    line(`Link Harness, idle memory in its sandbox: ${mib(link.idleKb)} MiB`);
    if (NO_OPENCLAW) {
      line(`OpenClaw not measured: ${NO_OPENCLAW}`);
      return { linkFirstMs: link.firstMs, linkIdleKb: link.idleKb };
    }
    const oc = await measureOpenClaw(runs);
    line(`OpenClaw in Link, first start (configure, doctor --fix) to first answer: ${s(oc.firstMs)} s`);
    line(
      `OpenClaw in Link, start to gateway health, n=${runs}: p50 ${
        s(oc.healthMs)
      } s (bare: ${BARE.healthS} s)`,
    );
    line(
      `OpenClaw in Link, start to first answer, n=${runs}: p50 ${s(oc.answerMs)} s (${
        (oc.answerMs / link.firstMs).toFixed(1)
      }x Link Harness)`,
    );
    line(
      `OpenClaw in Link, idle memory in its sandbox: ${mib(oc.idleKb)} MiB (bare: ~${BARE.idleMb} MB; ${
        (oc.idleKb / link.idleKb).toFixed(1)
      }x Link Harness)`,
    );
    return {
      linkFirstMs: link.firstMs,
      linkIdleKb: link.idleKb,
      openclawFirstMs: oc.firstMs,
      openclawHealthMs: oc.healthMs,
      openclawAnswerMs: oc.answerMs,
      openclawIdleKb: oc.idleKb,
    };
  } finally {
    restore();
  }
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 3));
