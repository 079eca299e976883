/**
 * The agent's roles: its bridge, whose door wakes the agent at a message by starting its harness
 * itself (its proxy in the bridge, its sandbox the bridge's child: inBridgeStarter) and lets it
 * sleep when idle (door/), and `lnk agent run`, the harness as a service of its own, for a starter
 * that runs the agent through the service backend (serviceStarter). Each loads its modules only
 * when it runs.
 * @module
 */
/** The roles, each loading its own modules when it runs. */
export { runAgentRole, runBridgeRole } from "./role_entries.ts";
