import { isLinkError, logger } from "../base/mod.ts";
import { type FiringContext, stepFiring } from "./firing_context.ts";
import { type FiringRecord, firingRequest } from "./firing_record.ts";
import { RETRY_FIRST_MS, RETRY_MAX_MS, withRetry } from "./retry.ts";

const log = logger("runner");

/**
 * Asks the agent a taken firing's message until it answers, and keeps the answer (`answered`). A
 * door that refuses, an agent asleep or busy is tried again with the same request, so the harness
 * answers once. A turn that failed (TURN_FAILED: the model unreachable, the harness failing) is
 * kept by the harness as that request's answer, so it is asked again as a new message,
 * `<request>#<attempt>`, its attempt kept first; past the catch-up window from its due, the
 * firing's answer says the agent could not answer, so the owner hears of it rather than nothing,
 * and the job goes on as any firing's would.
 */
export async function askUntilAnswered(
  record: FiringRecord,
  options: { ctx: FiringContext; fields: Record<string, unknown> },
): Promise<FiringRecord> {
  const { ctx, fields } = options;
  for (;;) {
    try {
      const answer = await withRetry(() => ctx.driver.ask(record.job, record.request), {
        clock: ctx.clock,
        signal: ctx.signal,
        what: "fire a job through the agent's door",
        fields,
        passOn: (err) => isLinkError(err, "TURN_FAILED"),
      });
      return await stepFiring(ctx, record, { state: "answered", answer });
    } catch (err) {
      if (!isLinkError(err, "TURN_FAILED")) throw err;
      const attempt = (record.attempt ?? 1) + 1;
      if (ctx.clock.now() - record.due > ctx.catchUpMs) {
        log.warn("A job's turns kept failing past the catch-up window: its answer says so", {
          ...fields,
          attempts: attempt - 1,
          error: err.message,
        });
        const answer = `(Link) The message "${excerpt(record.job.text)}" was not answered: ${err.message}`;
        return await stepFiring(ctx, record, {
          state: "answered",
          answer,
          note: "the agent could not answer",
        });
      }
      const wait = Math.min(RETRY_FIRST_MS * 2 ** (attempt - 2), RETRY_MAX_MS);
      log.warn("A job's turn failed: it is asked again as a new message", {
        ...fields,
        attempt,
        retry_in_ms: wait,
        error: err.message,
      });
      record = await stepFiring(ctx, record, {
        state: "taken",
        request: `${firingRequest(record.job.id, record.due)}#${attempt}`,
        attempt,
      });
      await ctx.clock.sleep(wait, ctx.signal);
    }
  }
}

function excerpt(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
