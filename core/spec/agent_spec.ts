import { z } from "zod";
import { isDuration, validateToml } from "../base/mod.ts";

const Duration = z.string().refine(isDuration, 'must be a duration such as "10s" or "5m"');

/** An agent's opinions (Config/spec.toml, U-5): how it runs, not what it may reach. */
export const Spec = z.strictObject({
  run: z.strictObject({
    /** How long with nothing coming before the agent sleeps (PRC-12). */
    idle_after: Duration.default("5m"),
    /** The agent's time zone, for its schedules (U-38). */
    time_zone: z.string().optional(),
  }).prefault({}),
  turns: z.strictObject({
    /** How often a running turn renews its lease (TRN-1). */
    renew: Duration.default("10s"),
    /** How long an unrenewed lease lasts before it is judged dead (TRN-2). */
    lapse: Duration.default("60s"),
    /** What a message arriving mid-turn does (TRN-11). */
    busy: z.enum(["join", "queue", "refuse"]).default("join"),
  }).prefault({}),
  model: z.strictObject({
    /** Where conversations are kept: "files" (Agent/chats), or "sqlite" (TRN-14). */
    store: z.enum(["files", "sqlite"]).default("files"),
    /** Tokens of context the model takes; compaction starts near it. */
    context: z.number().int().positive().optional(),
  }).prefault({}),
  connection: z.record(
    z.string(),
    z.strictObject({ steered: z.string().regex(/^(none|react:.+)$/).default("none") }),
  ).default({}),
  tool: z.strictObject({
    scheduler: z.strictObject({
      hops: z.number().int().min(0).default(8),
      per_day: z.number().int().min(0).default(100),
      wake: z.enum(["runner", "address"]).default("runner"),
      /** A job missed while the runner was down fires once if it is back within this long. */
      catch_up: Duration.default("6h"),
    }).prefault({}),
  }).prefault({}),
  access: z.strictObject({ strangers_tools: z.array(z.string()).default([]) }).prefault({}),
  /** Link Memory (MEM-1): off unless the owner turns it on. */
  memory: z.strictObject({
    on: z.boolean().default(false),
    /** The embeddings model asked of the agent's provider; without one, search is by words alone. */
    embeddings: z.string().min(1).max(200).optional(),
  }).prefault({}),
});
export type Spec = z.infer<typeof Spec>;

/** Reads a spec file's text; each problem names the file, line and key. */
export function parseSpec(text: string, path: string): Spec {
  return validateToml(Spec, text, path, "Fix these keys in the agent's spec");
}

/** The spec a new agent gets: Link's opinions, each explained. */
export const DEFAULT_SPEC_TOML = `# How this agent runs: its opinions. What it may reach is in sandbox.toml.
# An unknown section or key is refused, never ignored.

[run]
# With nothing coming for this long, the agent sleeps; a message wakes it.
idle_after = "5m"

[turns]
# A running turn renews its lease this often...
renew = "10s"
# ...and a lease not renewed for this long belongs to a process that died.
lapse = "60s"
# A message arriving mid-turn: "join" steers the running turn, "queue" waits
# for it to end, "refuse" answers that the agent is busy.
busy = "join"

[model]
# Where conversations are kept: "files" (Agent/chats) or "sqlite".
store = "files"

[tool.scheduler]
# How many hops a message may travel between agents, and how many messages
# the agent may start in a day. Left unset here, a team's file may set them
# for its members; set here, this agent's own win.
# hops = 8
# per_day = 100
# A job missed while the runner was down (the machine off) fires once when it
# is back within this long; missed by more, it is skipped and the next taken.
# catch_up = "6h"
# Who fires the jobs when they are due: "runner", a runner beside the bridge,
# or "address", for a machine that runs an agent only while it answers: no
# runner sits on the agent; the machine reads when the next job is due
# (lnk agent schedule next --json) and runs lnk agent schedule run then.
# wake = "runner"

# Link Memory: an index of the agent's notes and conversations it searches by
# words and, with an embeddings model, by meaning. Off unless turned on here
# or with \`lnk agent memory on\`.
# [memory]
# on = true
# embeddings = "text-embedding-3-small"
`;
