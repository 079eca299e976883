import type { HarnessPolicy } from "./harness_policy.ts";
import type { PlannedCheck } from "./planned_check.ts";
import type { ProbeAnswer } from "./probe_protocol.ts";

/** A check judged from one "self" probe's facts. */
function selfCheck(
  check: string,
  expected: string,
  judge: (facts: Record<string, string>) => { result: string; ok: boolean },
): PlannedCheck {
  return {
    check,
    expected,
    probes: [{ kind: "self" }],
    judge: ([answer]: readonly ProbeAnswer[]) =>
      Promise.resolve(
        answer?.facts ? judge(answer.facts) : { result: answer?.detail ?? "no answer", ok: false },
      ),
  };
}

/**
 * The process checks of `lnk agent harness check` (SBX-1 and the red team's findings): the
 * program is not host uid 0 (as root, the agent's own uid), holds no capability, /proc/sys is
 * read-only, its descriptors 0, 1 and 2 are Link's pipes or /dev/null, and neither bubblewrap's
 * pid 1 nor Link's launcher can be ptraced.
 */
export function planProcessChecks(policy: HarnessPolicy, personUid: number): PlannedCheck[] {
  const uid = policy.identity?.uid ?? personUid;
  const who = policy.identity ? `uid ${uid} (its own)` : `uid ${uid} (yours)`;
  return [
    selfCheck("not host uid 0", who, (f) => ({
      result: f.Uid === "0"
        ? "uid 0 (root)"
        : `uid ${f.Uid}${f.Uid === String(uid) ? policy.identity ? " (its own)" : " (yours)" : ""}`,
      ok: f.Uid === String(uid) && uid !== 0,
    })),
    selfCheck("capabilities", "none, no new privileges", (f) => {
      const none = /^0+$/.test(f.CapEff ?? "") && /^0+$/.test(f.CapBnd ?? "") && f.NoNewPrivs === "1";
      return {
        result: none ? "none, no new privileges" : `effective ${f.CapEff}, bounding ${f.CapBnd}`,
        ok: none,
      };
    }),
    selfCheck("/proc/sys (kernel settings)", "read-only", (f) => ({
      result: f.procSys ?? "?",
      ok: f.procSys === "read-only",
    })),
    selfCheck("descriptors 0, 1, 2", "Link's pipes or /dev/null", (f) => {
      const ends = [f.fd0, f.fd1, f.fd2];
      const ours = ends.every((t) => t === "pipe:" || t === "/dev/null" || t === "closed");
      return { result: ours ? "Link's pipes or /dev/null" : ends.join(", "), ok: ours };
    }),
    selfCheck("pid 1 and Link's launcher (ptrace)", "refused", (f) => {
      const refused = f.ptracePid1 === "refused" && f.ptraceParent === "refused";
      return {
        result: refused ? "refused" : `pid 1 ${f.ptracePid1}, launcher ${f.ptraceParent}`,
        ok: refused,
      };
    }),
  ];
}
