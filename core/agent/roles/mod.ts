/**
 * The two roles each agent runs: its bridge, whose door wakes the agent at a message and lets it
 * sleep when idle (door/), and its agent service, which runs its harness. Each loads its modules
 * only when it runs, so main.ts can map both here and a wake loads no more than the agent role.
 * @module
 */
/** The roles, each loading its own modules when it runs. */
export { runAgentRole, runBridgeRole } from "./role_entries.ts";
