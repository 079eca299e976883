/**
 * What every part of Link shares: errors, logging, secrets, the clock, TOML and atomic writes,
 * paths, proofs, and starting Link's own roles. Imports nothing else from Link.
 * @module
 */
/** The one error type, its codes and helpers. */
export { ERROR_CODES, type ErrorCode, isErrorCode, isLinkError, LinkError, toLinkError } from "./errors.ts";
/** The one wire shape of an error between Link's own processes, written and read back with its code. */
export {
  ErrorBody,
  errorFromWire,
  ErrorWire,
  errorWire,
  LinkErrorBody,
  type WrittenError,
} from "./error_wire.ts";
/** The one table from code to HTTP status, and back, where an error answers over HTTP. */
export { errorCodeOfStatus, errorFromAnswer, errorResponse, errorStatus } from "./error_status.ts";
/** A value that never prints. */
export { Secret } from "./secret.ts";
/** Scoped JSON-line loggers. */
export { type Logger, logger, type LogLevel, setDefaultLogLevel, setLogFields, setLogSink } from "./log.ts";
/** Time, real or driven by tests. */
export { type Clock, SYSTEM_CLOCK } from "./clock.ts";
/** Ending a process no agent owns a while after its last agent (PRC-15). */
export { Linger, LINGER_MS } from "./linger.ts";
/** Durations such as "10s" and "5m". */
export { isDuration, parseDuration } from "./duration.ts";
/** Writes that are never seen half done, and tolerant reads. */
export { atomicWrite, isTempName, readTextIfExists, readTextOrEmpty } from "./atomic_write.ts";
/** The first line of stdin, where a role is handed its secrets. */
export { readStdinLine } from "./stdin_line.ts";
/** Closing what may be closed already, and writing every byte. */
export { closeQuietly, writeAll } from "./conn_io.ts";
/** An accept loop that outlives a failed accept (EMFILE), and ends only when stopped or its listener is gone. */
export { keepAccepting, type KeepAcceptingOptions } from "./keep_accepting.ts";
/** The limit on open descriptors, raised to the hard one by each role that serves. */
export { type FdLimit, isOutOfDescriptors, raiseFdLimit, readFdLimit, setFdLimit } from "./fd_limit.ts";
/** A byte stream read as lines of UTF-8 text: the store driver protocol's framing. */
export { TextLineReader } from "./text_line_reader.ts";
/** An exclusive lock on a file, held until disposed; taken at once or waited for. */
export { type HeldLock, lockFile, lockNote, tryLockFile } from "./lock_file.ts";
/** TOML reading with file, line and key in every error. */
export { lineOfKey, loadToml, parseToml, stringifyToml, validateToml } from "./toml.ts";
/** A schema built at its first use, so loading its module costs nothing. */
export { lazySchema } from "./lazy_schema.ts";
/** Path joining as node:path does it, without loading Node's compatibility layer. */
export { dirnamePath, fileUrlPath, joinPath } from "./file_path.ts";
/** Every path Link uses, rooted at a home folder. */
export { homeFrom, LinkPaths } from "./paths.ts";
/** HMAC proofs with the agent's key, under a label per use. */
export {
  type AgentKey,
  checkProof,
  decodeKey,
  EMBEDDING_BINDING_LABEL,
  embeddingProof,
  encodeKey,
  makeProof,
  newAgentKey,
  newChallenge,
  type ProofLabel,
  sha256Hex,
} from "./proof.ts";
/** Starting Link's own roles, from source or compiled, their ready line and their error line. */
export {
  announceReady,
  PORT_TAKEN_EXIT,
  readReadyLine,
  type ReadReadyOptions,
  READY_PREFIX,
  roleArgv,
  roleEnv,
  RoleExited,
  type RoleProcess,
  sourceArgv,
  spawnRole,
  type SpawnRoleOptions,
} from "./role.ts";
/** Where Link runs from when from source: its checkout, entry, config and lock. */
export { CHECKOUT_DIR, CONFIG_PATH, LOCK_PATH, MAIN_PATH } from "./checkout.ts";
/** Deno's words when a role cannot load its modules, as a Link error with the repair. */
export { moduleLoadFailure, REPAIR_HINT } from "./module_load.ts";
/** A role's final error: the one line its parent reads, never its log. */
export { announceError, ERROR_PREFIX, readErrorLine, ROLE_LOGS_HINT } from "./role_error.ts";
