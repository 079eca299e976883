/**
 * Link Harness's conversation store: numbered events written once, the turn's lease and the
 * narrowed tool list, behind one contract (TRN-14..18). Drivers: files in the agent's
 * `Agent/chats/` (the default), SQLite, and any program speaking the JSON-lines driver protocol,
 * which is how drivers run outside the sandbox.
 * @module
 */
/** The contract every driver answers, and the events and lease it keeps. */
export {
  ConversationEvent,
  type ConversationStore,
  Lease,
  LeaseHolder,
  type StoredEvent,
} from "./contract.ts";
/** Judging a lease: lapsed at exactly the lapse, from the caller's settings only (TRN-2, TRN-3). */
export { isLapsed, type LeaseJudgement, mayTake, sameHolding } from "./lease_rules.ts";
/** The files driver, rooted at `Agent/chats/`; a store that can be closed. */
export { filesStore, type OpenStore } from "./files_store.ts";
/** Conversation ids to folder names and back, reversibly and safely. */
export { conversationFolder, conversationFromFolder } from "./conversation_folder.ts";
/** The SQLite driver (node:sqlite). */
export { sqliteStore, type SqliteStoreOptions } from "./sqlite_store.ts";
/** The JSON-lines store driver protocol: calls and answers. */
export { type DriverCall, DriverReply, DriverRequest } from "./driver_protocol.ts";
/** Answers driver protocol calls from a stream with a store, one at a time, in order. */
export { answerStoreCall, serveStoreDriver, type ServeStoreDriverOptions } from "./serve_store_driver.ts";
/** A store that asks a driver program, with or without `serve`, stopping a call past 30 s. */
export { DRIVER_CALL_TIMEOUT_MS, programStore, type ProgramStoreOptions } from "./program_store.ts";
/** `lnk store driver --kind files|sqlite --root <path> [--serve]`. */
export { runStoreDriverRole } from "./run_store_driver_role.ts";
/** Moving conversations between stores of any drivers (TRN-18). */
export { type CopiedConversation, copyConversation, copyConversations } from "./copy_conversation.ts";
/** The narrowed tool list as kept beside the events (TRN-13). */
export { ToolsFile } from "./stored_json.ts";
/** The store the harness uses inside its sandbox when a driver outside keeps its conversations (TRN-14). */
export { bridgeStore, type BridgeStoreOptions } from "./bridge_store.ts";
/** The store contract as driver-protocol calls, whoever carries them, and each call in words. */
export { describeCall, type DriverCaller, storeOverCalls } from "./driver_client.ts";
