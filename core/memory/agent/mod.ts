/**
 * Link Memory as agents and their bridges use it (MEM-1, PRC-14): turning it on and off in the
 * spec, its status and search for `lnk agent memory`, and an awake agent's session with its
 * owner's memory service, started first when none runs.
 * @module
 */
/** `lnk agent memory on|off|status|search`. */
export { changeMemory, type MemoryChanged } from "./change_memory.ts";
export { memorySpecOn, type MemoryStatus, memoryStatus, searchAgentMemory } from "./agent_memory.ts";
/** Starting the owner's memory service, and an awake agent's session with it (PRC-14). */
export { ensureMemoryService, memoryService, memoryServiceNames } from "./memory_service_start.ts";
export { MemorySession, type MemorySessionOptions, type SessionEmbed } from "./memory_session.ts";
