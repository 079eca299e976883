/**
 * Asking for an outside harness's needs and risks (GRT-18..GRT-22): the questions at a start or a
 * switch, and the answers kept with the needs in `~/.lnk/harnesses/<harness>.toml`.
 * @module
 */
/** Asks for the needs not yet answered, or refuses without a terminal and --yes. */
export { type Asked, askHarnessNeeds, type Asking, needsOfAdapter } from "./ask_needs.ts";
/** The answers kept in a harness's layer file. */
export {
  allowedRisks,
  type Answer,
  type KeptAnswers,
  loadAnswers,
  type Need,
  needKey,
  needsOf,
  saveAnswers,
  sectionOf,
} from "./needs_answers.ts";
/** `lnk agent harness allow|deny|reset`: the answers changed by hand, or forgotten. */
export { type AnswersChanged, changeHarnessAnswers, resetHarnessAnswers } from "./change_answers.ts";
/** `lnk agent use <harness>`: a switch, asked for when it widens. */
export { type HarnessSwitched, useHarness } from "./use_harness.ts";
/** `lnk agent harness remove|delete`: a harness ended for one agent. */
export { type HarnessRemoved, removeHarnessOf } from "./remove_harness.ts";
/** The agent's own grants as the flag lines a need is asked by (never asked). */
export { ownGrantKeys } from "./own_grants.ts";
