import { LinkError, logger, roleArgv, setLogSink } from "../../base/mod.ts";
import { listAgents } from "../agents.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { CheckSetup } from "./check_setup.ts";
import { planFileChecks, toolsChatsCheck } from "./file_checks.ts";
import { planConfinementChecks } from "./confinement_checks.ts";
import { planProcessChecks } from "./process_checks.ts";
import { protectedCheck, protectedCheckPlace } from "./protected_check.ts";
import { type HarnessPolicy, harnessPolicy } from "./harness_policy.ts";
import { type HarnessSandbox, type HarnessSandboxOptions, startHarnessSandbox } from "./harness_sandbox.ts";
import { type NetworkFacts, planNetworkChecks } from "./network_checks.ts";
import { planTeamChecks } from "./team_checks.ts";
import type { CheckRow, PlannedCheck } from "./planned_check.ts";
import { ProbeAnswers } from "./probe_protocol.ts";

const log = logger("check");

/** How `lnk agent harness check` runs; the sandbox's options but its command and streams. */
export interface HarnessCheckOptions
  extends Omit<HarnessSandboxOptions, "command" | "stdin" | "stdout" | "stderr" | "env"> {
  /** The probe program inside: `lnk agent harness probe` unless told. */
  readonly probeCommand?: readonly string[];
  /** What the network checks know of this machine; looked up unless told. */
  readonly facts?: NetworkFacts;
}

/** What `lnk agent harness check` found. */
export interface HarnessCheck {
  readonly agent: string;
  readonly harness: string;
  readonly network: "proxy" | "host";
  readonly rows: readonly CheckRow[];
  /** Every row as expected. */
  readonly ok: boolean;
}

/**
 * `lnk agent harness check` (SBX-2, SBX-9, SBX-21, GRT-8, TEAM-13): starts a sandbox built as the harness's
 * is, with a proxy of its own, and probes from inside that each grant holds and each denial holds.
 * Canaries and listeners set up outside make every answer checkable there; all are removed after.
 * A running agent is not touched.
 */
export async function harnessCheck(
  ctx: AgentContext,
  agent: AgentSettings,
  options: HarnessCheckOptions = {},
): Promise<HarnessCheck> {
  const others = (await listAgents(ctx)).filter((a) => a.id !== agent.id);
  // The check's proxy refuses what the check tries on purpose; its table says so, not its log.
  using _quiet = { [Symbol.dispose]: setLogSink(() => {}) };
  await using setup = new CheckSetup();
  const start = (view: "harness" | "tools") =>
    startHarnessSandbox(ctx, agent, {
      ...options,
      view,
      command: options.probeCommand ?? roleArgv(["agent", "harness", "probe"]),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    });
  let rows: CheckRow[];
  let policy: HarnessPolicy;
  // Made before the start, which keeps the protected places of the repositories it finds.
  const place = protectedCheckPlace(await harnessPolicy(ctx, agent), ctx.paths.home);
  const repo = place === undefined ? undefined : await setup.repository(place);
  {
    await using sandbox = await start("harness");
    policy = sandbox.policy;
    rows = await runChecks(sandbox, [
      ...planProcessChecks(policy, Deno.uid() ?? 0),
      ...await planFileChecks(setup, ctx.paths, policy, others),
      ...await planTeamChecks(setup, ctx.paths, policy),
      ...planNetworkChecks(setup, policy.spec, sandbox.wiring, options.facts ?? machineFacts()),
      ...await planConfinementChecks(setup, policy, sandbox.process),
      await protectedCheck(setup, repo),
    ]);
  }
  // Link Harness writes chats/ itself; its tools and run's commands, in their own sandboxes, never do.
  if (policy.folders === "layout" && policy.harnessWritesChats) {
    await using tools = await start("tools");
    rows.push(...await runChecks(tools, [await toolsChatsCheck(setup, policy)]));
  }
  return {
    agent: agent.name,
    harness: agent.harness,
    network: policy.spec.network.mode,
    rows,
    ok: rows.every((r) => r.ok),
  };
}

/** Probes from inside one sandbox and judges each check's answers outside. */
async function runChecks(sandbox: HarnessSandbox, checks: readonly PlannedCheck[]): Promise<CheckRow[]> {
  const answers = await probe(sandbox, checks);
  const rows: CheckRow[] = [];
  let at = 0;
  for (const check of checks) {
    const mine = answers.slice(at, at + check.probes.length);
    at += check.probes.length;
    const { result, ok } = await check.judge(mine);
    rows.push({
      check: check.check,
      expected: check.expected,
      result,
      ok,
      ...(check.gap ? { gap: true } : {}),
    });
  }
  return rows;
}

/** Hands the probes to the program inside, one line of JSON, and reads its one line back. */
async function probe(sandbox: HarnessSandbox, checks: readonly PlannedCheck[]) {
  const { child } = sandbox.process;
  const probes = checks.flatMap((c) => c.probes);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${JSON.stringify(probes)}\n`));
  await writer.close();
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    sandbox.status,
  ]);
  const line = stdout.trim().split("\n").at(-1) ?? "";
  try {
    if (status.code !== 0) throw new Error(`it exited with code ${status.code}`);
    const answers = ProbeAnswers.parse(JSON.parse(line));
    // A missing answer would read as a denial holding: every probe must answer.
    if (answers.length !== probes.length) {
      throw new Error(`${answers.length} answers to ${probes.length} probes`);
    }
    return answers;
  } catch (err) {
    // What the probe wrote is the sandbox's words: logged as such, never Link's hint.
    log.warn("The probe inside the sandbox did not answer", {
      from: "sandbox",
      said: stderr.trim().split("\n").slice(-8).join("\n"),
    });
    throw new LinkError(
      "SERVICE_FAILED",
      `Cannot check the harness's sandbox: the probe inside did not answer (${(err as Error).message})`,
      { hint: "What it wrote is logged above, as the sandbox's; run the check again", cause: err },
    );
  }
}

/** This machine's address on its network (IPv4, not link-local) and the user's id. */
function machineFacts(): NetworkFacts {
  const lan = Deno.networkInterfaces().find((i) =>
    i.family === "IPv4" && !i.address.startsWith("127.") && !i.address.startsWith("169.254.")
  );
  return { lanAddress: lan?.address, uid: Deno.uid() ?? 0 };
}
