import { logger, type LogLevel } from "../core/base/mod.ts";

const log = logger("harness");

/** The longest line kept whole; a longer one is logged in pieces this long. */
const MAX_LINE = 8 * 1024;
const LEVELS: readonly string[] = ["debug", "info", "warn", "error"];

/** Whose output a sandboxed program's lines are, as each logged line says. */
export interface OutputFields {
  /** The agent it runs for: set by Link, never taken from the line. */
  readonly agent?: string;
  /**
   * The agents a sandbox serving several holds (an owner's shared harness): a line naming one of
   * them is logged as naming it; a line naming any other agent, as naming none.
   */
  readonly members?: readonly string[];
  readonly stream: "stdout" | "stderr";
}

/**
 * What a sandboxed program writes, logged by Link as the program's (SBX item 3 of the red team's
 * findings): each line becomes one of Link's JSON log lines with `from: "sandbox"`, the agent Link
 * knows it runs for, and the program's own words (a JSON line's level and message, its other
 * fields under `said`; any other text as the message). So a program can neither write a line Link
 * takes for its own (a failure reason, a hint) nor one that names another agent.
 */
export class ProgramOutput {
  #fields: OutputFields;
  #buffer = "";

  constructor(fields: OutputFields) {
    this.#fields = fields;
  }

  /** Takes text as it comes; whole lines are logged at once. */
  write(text: string): void {
    this.#buffer += text;
    for (;;) {
      const nl = this.#buffer.indexOf("\n");
      if (nl < 0 || nl > MAX_LINE) break;
      this.#line(this.#buffer.slice(0, nl));
      this.#buffer = this.#buffer.slice(nl + 1);
    }
    while (this.#buffer.length > MAX_LINE && !this.#buffer.slice(0, MAX_LINE).includes("\n")) {
      this.#line(this.#buffer.slice(0, MAX_LINE));
      this.#buffer = this.#buffer.slice(MAX_LINE);
    }
  }

  /** Logs what is left of an unended last line. */
  end(): void {
    if (this.#buffer !== "") this.#line(this.#buffer);
    this.#buffer = "";
  }

  /** Logs every line of a stream until it ends. */
  static async relay(stream: ReadableStream<Uint8Array>, fields: OutputFields): Promise<void> {
    const output = new ProgramOutput(fields);
    try {
      for await (const text of stream.pipeThrough(new TextDecoderStream())) output.write(text);
    } catch { /* the program's end closed it */ }
    output.end();
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    const { level, msg, said } = parse(line);
    const claimed = typeof said?.agent === "string" ? said.agent : undefined;
    const agent = this.#fields.agent ??
      (claimed !== undefined && this.#fields.members?.includes(claimed) ? claimed : undefined);
    log[level](msg, { from: "sandbox", stream: this.#fields.stream, agent, said });
  }
}

function parse(line: string): { level: LogLevel; msg: string; said?: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { level: "info", msg: line };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { level: "info", msg: line };
  }
  const { level, msg, time: _time, ...said } = value as Record<string, unknown>;
  return {
    level: typeof level === "string" && LEVELS.includes(level) ? level as LogLevel : "info",
    msg: typeof msg === "string" ? msg : line,
    said: Object.keys(said).length > 0 ? said : undefined,
  };
}
