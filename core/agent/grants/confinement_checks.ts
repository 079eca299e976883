import {
  formatSize,
  type HeldLimit,
  type HeldLimits,
  type ObservedLimits,
  observeLimits,
  type SandboxProcess,
} from "../../../sandbox/mod.ts";
import type { CheckSetup } from "./check_setup.ts";
import type { HarnessPolicy } from "./harness_policy.ts";
import type { PlannedCheck } from "./planned_check.ts";
import type { ProbeAnswer } from "./probe_protocol.ts";

/**
 * The confinement checks of `lnk agent harness check` (issue 9): the setuid and setgid bits and
 * device nodes refused, tried from inside and looked for outside; and each of [limits] in force,
 * by the cgroup bounds the kernel holds the sandbox to (read while it runs) or by the rlimits the
 * program inside runs under, saying which holds here.
 */
export async function planConfinementChecks(
  setup: CheckSetup,
  policy: HarnessPolicy,
  sandbox: SandboxProcess,
): Promise<PlannedCheck[]> {
  const observed = await observeLimits(sandbox.pid);
  const home = policy.harnessHome;
  const [file, char, block] = [
    await setup.writable(home),
    await setup.writable(home),
    await setup.writable(home),
  ];
  const checks: PlannedCheck[] = [];
  if (file) checks.push(setidCheck(file.inside));
  if (char && block) checks.push(deviceCheck(char.inside, block.inside));
  const held = sandbox.limits;
  checks.push(
    limitCheck("processes, all its tasks together ([limits] processes)", "processes", held, observed),
    limitCheck("memory, all its processes together ([limits] memory)", "memory", held, observed),
    limitCheck("the size of one file ([limits] file_size)", "fileSize", held, observed),
  );
  return checks;
}

/** The sandbox binds its harness home at its own path: inside and outside are one path. */
function setidCheck(path: string): PlannedCheck {
  return {
    check: "setuid and setgid bits (chmod u+s, g+s)",
    expected: "refused",
    probes: [{ kind: "setid", path }],
    async judge([answer]) {
      const mode = (await Deno.lstat(path).catch(() => undefined))?.mode ?? 0;
      const set = [...(mode & 0o4000 ? ["setuid"] : []), ...(mode & 0o2000 ? ["setgid"] : [])];
      if (set.length) return { result: `set: ${set.join(", ")}`, ok: false };
      if (answer?.detail !== "refused") {
        return { result: `not set, though ${answer?.list?.join(", ") || "nothing"} answered`, ok: false };
      }
      return { result: "refused", ok: true };
    },
  };
}

function deviceCheck(char: string, block: string): PlannedCheck {
  return {
    check: "device nodes (mknod)",
    expected: "refused",
    probes: [{ kind: "mknod", char, block }],
    async judge([answer]) {
      const made: string[] = [];
      for (const [path, kind] of [[char, "character"], [block, "block"]] as const) {
        const info = await Deno.lstat(path).catch(() => undefined);
        if (info?.isCharDevice || info?.isBlockDevice) made.push(kind);
      }
      if (made.length) return { result: `made: ${made.join(", ")}`, ok: false };
      if (!answer || answer.detail === "not tried") return { result: "not tried here", ok: true };
      return { result: `refused (${answer.detail})`, ok: true };
    },
  };
}

/** The rlimit each limit is under, as /proc/self/limits names it in the probe's answer. */
const RLIMIT = { processes: "processes", memory: "data", fileSize: "fileSize" } as const;

function limitCheck(
  check: string,
  which: keyof HeldLimits,
  held: HeldLimits,
  observed: ObservedLimits,
): PlannedCheck {
  const limit = held[which];
  const show = (n: number) => which === "processes" ? String(n) : formatSize(n);
  return {
    check,
    expected: `at most ${show(limit.value)}`,
    probes: [{ kind: "limits" }],
    judge([answer]) {
      return Promise.resolve(judgeLimit(which, limit, observed, answer, show));
    },
  };
}

function judgeLimit(
  which: keyof HeldLimits,
  limit: HeldLimit,
  observed: ObservedLimits,
  answer: ProbeAnswer | undefined,
  show: (n: number) => string,
): { result: string; ok: boolean } {
  const at = `at most ${show(limit.value)}`;
  if (limit.by !== "rlimit") {
    const seen = which === "fileSize" ? undefined : observed[which];
    if (seen === limit.value) return { result: `${at} (${limit.by})`, ok: true };
    return { result: `not held: the cgroup says ${seen === undefined ? "none" : show(seen)}`, ok: false };
  }
  const value = answer?.values?.[RLIMIT[which]];
  const set = limit.set ?? limit.value;
  if (value !== String(set)) {
    return { result: `not held: the rlimit inside is ${value ?? "unread"}`, ok: false };
  }
  if (which === "processes") {
    // The kernel lets uid 0 of this machine start processes past RLIMIT_NPROC.
    if (limit.uid === 0) {
      return { result: "not held: an rlimit does not bind uid 0", ok: false };
    }
    return { result: `${at} beyond its user's other tasks (rlimit)`, ok: true };
  }
  return { result: which === "memory" ? `${at} a process (rlimit)` : `${at} (rlimit)`, ok: true };
}
