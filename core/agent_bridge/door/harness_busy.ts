import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { type AskCaller, openEndpoint } from "../../../connections/mod.ts";

/** Link Harness's route answering whether the agent may sleep (core/harness endpoint's BUSY_PATH). */
const BUSY_PATH = "/_link/busy";

/** What holds the agent awake inside its harness: running turns and background command locks (PRC-10). */
export const HarnessBusy = z.looseObject({
  turns: z.number().int().min(0),
  locks: z.number().int().min(0),
});
export type HarnessBusy = z.infer<typeof HarnessBusy>;

/**
 * Asks the harness at its endpoint socket, as a proven caller, whether a turn runs or a background
 * command holds its lock (PRC-10). A harness without the route (404) has neither to tell: the
 * door's framing is all that says it is busy.
 */
export async function askHarnessBusy(socket: string, caller: AskCaller): Promise<HarnessBusy> {
  await using endpoint = await openEndpoint({ path: socket }, caller);
  const res = await endpoint.request("GET", BUSY_PATH);
  if (res.status === 404) return { turns: 0, locks: 0 };
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  const parsed = HarnessBusy.safeParse(body);
  if (res.status !== 200 || !parsed.success) {
    throw new LinkError(
      "SERVICE_FAILED",
      `Cannot ask the harness whether it is busy: it answered ${res.status} ${res.text.slice(0, 200)}`,
    );
  }
  return parsed.data;
}
