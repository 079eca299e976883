import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { JobThread } from "../job.ts";

/**
 * What a tool call's `_meta` says of where it comes from (SCH-9), as the harness writes it: the
 * calling conversation, the hops of the message its turn answers, and the conversation's tools.
 * Never an agent: which agent calls is the tool proxy's own.
 */
export interface CallMeta {
  readonly thread: string;
  readonly hops: number;
  /** The conversation's tools; undefined when the harness did not say. */
  readonly tools?: readonly string[];
}

const Meta = z.looseObject({
  "link.local/thread": JobThread,
  "link.local/hops": z.number().int().min(0).default(0),
  "link.local/tools": z.array(z.string().min(1).max(200)).max(1000).optional(),
});

/** Reads a call's `_meta`; a call that does not say its conversation is refused (INVALID). */
export function readCallMeta(meta: unknown): CallMeta {
  const parsed = Meta.safeParse(meta ?? {});
  if (!parsed.success) {
    throw new LinkError(
      "INVALID",
      "Cannot take the call: its _meta does not say the conversation (link.local/thread) and hops (link.local/hops)",
      { hint: "The harness sends them with each call; this one is not set up for Link's tools" },
    );
  }
  const d = parsed.data;
  return { thread: d["link.local/thread"], hops: d["link.local/hops"], tools: d["link.local/tools"] };
}
