/**
 * The memory service role (MEM-2, PRC-14): `lnk memory serve --owner <owner>`, one owner's Link
 * Memory outside every sandbox on `~/.lnk/run/memory-<owner>.sock`, held by its agents' sessions
 * while they are awake and ending 5 s after the last.
 * @module
 */
/** The role's entry. */
export { runMemoryServiceRole } from "./run_memory_service_role.ts";
/** The service: sessions, searches, notes and its linger. */
export {
  type AttachRequest,
  MEMORY_LINGER_MS,
  MemoryService,
  type MemoryServiceState,
} from "./memory_service.ts";
/** Its answers over HTTP on its socket. */
export { answerMemory } from "./serve_memory_service.ts";
