/** Log levels, lowest first. `LNK_LOG` picks the lowest one written. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** A scoped logger writing one JSON object per line to stderr. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

let defaultLevel: LogLevel = "info";

/**
 * The level written when `LNK_LOG` says none: "info" for background roles, whose log is their
 * service's; a command in a terminal sets "warn", since commands print results, not logs (STYLE 5).
 */
export function setDefaultLogLevel(level: LogLevel): void {
  defaultLevel = level;
}

function threshold(): number {
  let level: string | undefined;
  try {
    level = Deno.env.get("LNK_LOG");
  } catch {
    level = undefined;
  }
  return RANK[(level ?? defaultLevel) as LogLevel] ?? RANK[defaultLevel];
}

const ENCODER = new TextEncoder();

// Straight to fd 2, not console.error: a woken process's first log line then costs no console
// set-up (PRC-13). A closed stderr loses the line rather than failing the caller.
function writeStderr(line: string): void {
  const bytes = ENCODER.encode(`${line}\n`);
  try {
    for (let done = 0; done < bytes.length;) done += Deno.stderr.writeSync(bytes.subarray(done));
  } catch {
    // Nowhere left to say it.
  }
}

let sink: (line: string) => void = writeStderr;

/** Sends log lines elsewhere (tests capture them); returns a function restoring stderr. */
export function setLogSink(next: (line: string) => void): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

let base: Record<string, unknown> = {};

/**
 * Fields every later line of this process carries, after its own: a connection's bridge names its
 * agent and connection on each, so `lnk agent logs --connection <name>` finds them.
 */
export function setLogFields(fields: Record<string, unknown>): void {
  base = { ...fields };
}

function write(scope: string, level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (RANK[level] < threshold()) return;
  const entry = { time: new Date().toISOString(), level, scope, msg, ...fields, ...base };
  sink(JSON.stringify(entry, (_k, v) => (v instanceof Error ? { message: v.message } : v)));
}

/** Makes a logger for one part of Link: `const log = logger("bridge");`. */
export function logger(scope: string): Logger {
  return {
    debug: (msg, fields) => write(scope, "debug", msg, fields),
    info: (msg, fields) => write(scope, "info", msg, fields),
    warn: (msg, fields) => write(scope, "warn", msg, fields),
    error: (msg, fields) => write(scope, "error", msg, fields),
  };
}
