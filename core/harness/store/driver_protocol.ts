import { z } from "zod";
import { ErrorWire, lazySchema } from "../../base/mod.ts";
import { ConversationEvent, Lease } from "./contract.ts";

/**
 * The store driver protocol (U-12, TRN-16, TRN-17): one JSON object per line on the driver's stdin,
 * one answer per line on its stdout, in order. A one-shot driver answers one call and exits; a
 * `serve` driver answers call after call until its stdin closes.
 *
 * ```
 * {"op":"append","conversation":"link:main","n":3,"event":{...}}   -> {"ok":true} | {"conflict":true}
 * {"op":"read","conversation":"link:main","from":1}                -> {"ok":true,"events":[{"n":1,"event":{...}}]}
 * {"op":"lease.read","conversation":"link:main"}                   -> {"ok":true,"lease":{...}|null}
 * {"op":"lease.take","conversation":..,"lease":{...},"lapse_ms":60000,"now_ms":..} -> {"ok":true,"lease":{...}|null}
 * {"op":"lease.renew","conversation":..,"lease":{...},"now_ms":..}  -> {"ok":true,"renewed":true|false}
 * {"op":"lease.release","conversation":..,"lease":{...}}           -> {"ok":true}
 * {"op":"tools.read","conversation":..}                            -> {"ok":true,"tools":[..]|null}
 * {"op":"tools.write","conversation":..,"tools":[..]}              -> {"ok":true}
 * {"op":"list"}                                                    -> {"ok":true,"conversations":[..]}
 * any call that fails                                              -> {"error":{"code":"..","message":"..","hint":".."}}
 * ```
 */
const conversation = lazySchema(() => z.string().min(1));
const number = lazySchema(() => z.number().int().min(1));
const ms = lazySchema(() => z.number().finite());

/** One call to a store driver. */
export const DriverRequest = lazySchema(() =>
  z.discriminatedUnion("op", [
    z.strictObject({ op: z.literal("append"), conversation, n: number, event: ConversationEvent }),
    z.strictObject({ op: z.literal("read"), conversation, from: number.optional() }),
    z.strictObject({ op: z.literal("lease.read"), conversation }),
    z.strictObject({ op: z.literal("lease.take"), conversation, lease: Lease, lapse_ms: ms, now_ms: ms }),
    z.strictObject({ op: z.literal("lease.renew"), conversation, lease: Lease, now_ms: ms }),
    z.strictObject({ op: z.literal("lease.release"), conversation, lease: Lease }),
    z.strictObject({ op: z.literal("tools.read"), conversation }),
    z.strictObject({ op: z.literal("tools.write"), conversation, tools: z.array(z.string()) }),
    z.strictObject({ op: z.literal("list") }),
  ])
);
export type DriverRequest = z.infer<typeof DriverRequest>;

/** The input shape of a call, as a client writes it (defaults in events not yet filled). */
export type DriverCall = z.input<typeof DriverRequest>;

/** Answers a client reads back; drivers Link does not control may add fields. */
export const DriverReply = {
  done: z.looseObject({ ok: z.literal(true) }),
  append: z.union([z.looseObject({ ok: z.literal(true) }), z.looseObject({ conflict: z.literal(true) })]),
  read: z.looseObject({
    ok: z.literal(true),
    events: z.array(z.looseObject({ n: number, event: ConversationEvent })),
  }),
  lease: z.looseObject({ ok: z.literal(true), lease: Lease.nullable() }),
  renewed: z.looseObject({ ok: z.literal(true), renewed: z.boolean() }),
  tools: z.looseObject({ ok: z.literal(true), tools: z.array(z.string()).nullable() }),
  conversations: z.looseObject({ ok: z.literal(true), conversations: z.array(z.string()) }),
  /** Link's one error shape; a driver Link does not control may add fields. */
  error: ErrorWire,
};
