import { z } from "zod";
import { LinkErrorBody } from "../../base/mod.ts";

/** One agent the shared bridge carries, as its control socket tells. */
export const CarriedState = z.strictObject({
  id: z.string(),
  /** Where the agent behind its door stands (asleep, waking, awake, stopping). */
  state: z.enum(["asleep", "waking", "awake", "stopping"]),
  port: z.number().int(),
  zone: z.string(),
});
export type CarriedState = z.infer<typeof CarriedState>;

/** An error as the control socket carries it: Link's one error shape's inner object. */
export const BridgesError = LinkErrorBody;
export type BridgesError = LinkErrorBody;

/** What the shared bridge says of itself (`GET /bridges`). */
export const BridgesSnapshot = z.strictObject({
  pid: z.number().int(),
  /** It has no agent and ends once its linger runs out (PRC-15). */
  lingering: z.boolean(),
  /** Its linger ran out: it is ending, and takes no agent on. */
  ending: z.boolean(),
  agents: z.array(CarriedState),
  /** Agents on its list it could not carry, with why. */
  failed: z.array(z.strictObject({ id: z.string(), error: BridgesError })),
  /** Its scheduler runners, one a time zone. */
  runners: z.array(z.strictObject({ zone: z.string(), pid: z.number().int() })),
});
export type BridgesSnapshot = z.infer<typeof BridgesSnapshot>;

/**
 * What the shared bridge did at `POST /sync` for one agent: it read its list again, then carries
 * the agent (woken when asked) or has let it go; or it cannot say, with the error. `ending` says
 * it is ending after its linger: start another.
 */
export const SyncAnswer = z.strictObject({
  agent: CarriedState.nullable(),
  error: BridgesError.optional(),
  ending: z.literal(true).optional(),
});
export type SyncAnswer = z.infer<typeof SyncAnswer>;

/** What `POST /sync` asks. */
export const SyncRequest = z.strictObject({
  agent: z.string().optional(),
  wake: z.boolean().default(false),
});
export type SyncRequest = z.infer<typeof SyncRequest>;
