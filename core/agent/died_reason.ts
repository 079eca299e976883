import { z } from "zod";

/** The final error a role writes as it ends (main.ts's runRole, or the role's own): with a code. */
const FinalError = z.looseObject({
  time: z.string(),
  level: z.literal("error"),
  msg: z.string(),
  code: z.string(),
  /** A line a sandboxed program wrote (ProgramOutput) is never Link's final error. */
  from: z.undefined().optional(),
});

/**
 * Why a service that is gone unbidden ended, from the last line it wrote since it started: its
 * final error, said as Link says errors (a line with a level of error and a code, written as the
 * role ends), else nothing it could say: it was killed (kill -9, out of memory) mid-way. Any
 * other line is what it was doing, never a reason.
 */
export function diedReason(log: string, which: string, sinceMs: number | undefined): string {
  const last = log.split("\n").filter(Boolean).at(-1);
  const final = last === undefined ? undefined : parseFinal(last);
  if (final && (sinceMs === undefined || Date.parse(final.time) >= sinceMs)) {
    return `its ${which} service failed: ${final.msg}`;
  }
  return `its ${which} service ended without a word: it was killed, or ran out of memory`;
}

function parseFinal(line: string): z.infer<typeof FinalError> | undefined {
  try {
    const parsed = FinalError.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
