/**
 * An agent's own bridges, served outside its sandbox by the bridge role with the one bridge
 * library: the store bridge, where the harness's conversations are kept by a driver run here
 * (TRN-14, BRG-16), and the way in, `send.sock`, where the agent sends out on its connections and
 * which checks the keyring at every call (BRG-14).
 * @module
 */
/** The store bridge: one proven call, one store operation of the agent's own conversations. */
export { serveStoreBridge, type ServeStoreBridgeOptions, STORE_BRIDGE_CAP } from "./serve_store_bridge.ts";
/** The drivers a store bridge runs, and the one an agent's spec names. */
export { openStoreDriver, sqliteStorePath, type StoreDriver, storeDriverFor } from "./store_driver.ts";
/** The store operations a harness may ask for, each an action of its own. */
export { STORE_ACTIONS } from "./store_bridge_call.ts";
/** Refuses a conversation id that reads as a path rather than one of the agent's conversations. */
export { checkConversationScope, MAX_CONVERSATION_CHARS } from "./conversation_scope.ts";
/** The way in, `send.sock`: a proven `send` on one of the agent's connections. */
export { serveWayIn, type ServeWayInOptions, WAY_IN_CAP } from "./serve_way_in.ts";
/** The way in's call and its client, kept in connections/link so the scheduler sends as the harness does. */
export {
  SEND_ACTION,
  SendAnswer,
  SendCall,
  sendOnWayIn,
  type WayInCaller,
} from "../../../connections/link/mod.ts";
/** Whom an agent's bridge serves: the agent, with its key or where to find it. */
export { type ServedAgent } from "./served_agent.ts";
