import { parseDuration } from "../../base/mod.ts";
import type { Spec } from "../../spec/mod.ts";

/** What a message arriving mid-turn does (TRN-11). */
export type BusyMode = "join" | "queue" | "refuse";

/** How an agent's turns run, from its spec's `[turns]` (TRN-1, TRN-2, TRN-11). */
export interface TurnSettings {
  /** How often a running turn renews its lease. */
  renewMs: number;
  /** How long an unrenewed lease lasts: read from the settings, never from the lease (TRN-3). */
  lapseMs: number;
  busy: BusyMode;
}

/** Link's own defaults: renew every 10 s, lapse after a minute, a mid-turn message joins. */
export const DEFAULT_TURNS: TurnSettings = Object.freeze({ renewMs: 10_000, lapseMs: 60_000, busy: "join" });

/** The turn settings of a spec. */
export function turnSettingsOf(spec: Spec): TurnSettings {
  return {
    renewMs: parseDuration(spec.turns.renew),
    lapseMs: parseDuration(spec.turns.lapse),
    busy: spec.turns.busy,
  };
}
