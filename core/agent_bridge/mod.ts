/**
 * The agent's bridge (`lnk agent bridge --agent <id>`): its door on the agent's port (woken at a
 * message, let sleep when idle), its store bridge and its way in (send.sock), and the harness it
 * starts itself. The shared bridge carries each of its agents with the same parts.
 * @module
 */
/** The role, its modules loaded when it runs. */
export async function runAgentBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runBridgeRole } = await import("./run_agent_bridge_role.ts");
  return await runBridgeRole(args, signal);
}
/** The door over an agent: its waking and sleeping. */
export {
  type AgentDoor,
  type AgentDoorOptions,
  AgentWaker,
  type AgentWakerOptions,
  askHarnessBusy,
  HarnessBusy,
  type IdleCheck,
  IdleWatch,
  type IdleWatchOptions,
  openAgentDoor,
  stoppedAccepting,
  type WakeState,
} from "./door/mod.ts";
/** The agent's own bridges: the store bridge and the way in. */
export {
  checkConversationScope,
  MAX_CONVERSATION_CHARS,
  openStoreDriver,
  SEND_ACTION,
  SendAnswer,
  SendCall,
  sendOnWayIn,
  type ServedAgent,
  serveStoreBridge,
  type ServeStoreBridgeOptions,
  serveWayIn,
  type ServeWayInOptions,
  sqliteStorePath,
  STORE_ACTIONS,
  STORE_BRIDGE_CAP,
  type StoreDriver,
  storeDriverFor,
  WAY_IN_CAP,
  type WayInCaller,
} from "./bridges/mod.ts";
/** The agent's tool proxy, serving Link Scheduler's tools for it (SBX-18). */
export { AgentTools } from "./agent_tools.ts";
/** Link Memory as an agent's bridge holds it: its session, its tools and its embedding endpoint (MEM-1..7). */
export { MemorySeat } from "./memory_seat.ts";
/** A `lnk connection bridge` per connection of an agent, each started again when it ends. */
export { runConnectionBridges } from "./connection_bridges.ts";
