import type { Probe, ProbeAnswer } from "./probe_protocol.ts";
import type { CheckSetup, ReadTarget, WriteTarget } from "./check_setup.ts";

/** One row of `lnk agent harness check`: what was tried, what should happen, what did. */
export interface CheckRow {
  readonly check: string;
  readonly expected: string;
  readonly result: string;
  readonly ok: boolean;
  /** A way in or out that `[network] mode = "host"` opens (SBX-9). */
  readonly gap?: boolean;
}

/** A check before it runs: its probes, and how their answers are judged outside. */
export interface PlannedCheck {
  readonly check: string;
  readonly expected: string;
  readonly probes: readonly Probe[];
  readonly gap?: boolean;
  judge(answers: readonly ProbeAnswer[]): Promise<{ result: string; ok: boolean }>;
}

/** How far a place is reached: the three answers a file check gives. */
export type Reach = "hidden" | "read-only" | "writable";

/** The reach a [files] or [paths] access grants. */
export function reachOf(access: "none" | "read" | "write"): Reach {
  return access === "write" ? "writable" : access === "read" ? "read-only" : "hidden";
}

/**
 * A check of how far a place is reached: each read target is read from inside (its hash must
 * match to count), each write target created from inside (it must arrive outside to count).
 * Without targets (the place is not on this machine) it says so and passes.
 */
export function reachCheck(
  setup: CheckSetup,
  check: string,
  expected: Reach,
  targets: { reads: (ReadTarget | undefined)[]; writes: (WriteTarget | undefined)[] },
): PlannedCheck {
  const reads = targets.reads.filter((t) => t !== undefined);
  const writes = targets.writes.filter((t) => t !== undefined);
  return {
    check,
    expected,
    probes: [
      ...reads.map((t): Probe => ({ kind: "read", path: t.inside })),
      ...writes.map((t): Probe => ({ kind: "write", path: t.inside, token: t.token })),
    ],
    async judge(answers) {
      if (reads.length + writes.length === 0) return { result: "not on this machine", ok: true };
      const read = reads.filter((t, i) => answers[i]?.sha256 === t.sha256).length;
      let written = 0;
      for (const target of writes) if (await setup.arrived(target)) written++;
      const reach: Reach = written > 0 ? "writable" : read > 0 ? "read-only" : "hidden";
      // Where every target should have been reached, one that was not is a grant holding in part.
      const missed = read < reads.length || (reach === "writable" && written < writes.length);
      const some = reach === expected && reach !== "hidden" && missed;
      return { result: some ? `${reach} (in part)` : reach, ok: reach === expected && !some };
    },
  };
}
