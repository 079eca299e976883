/**
 * The conformance kit: what every adapter Link ships answers, checked against a running agent.
 * @module
 */
export { type KitRow, type KitTarget, runKit } from "./conformance_kit.ts";
