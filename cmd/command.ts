/** What a command may touch: the streams, the environment and the person's home. */
export interface Io {
  readonly env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  /** The home folder every Link path is rooted at. */
  readonly home: string;
  /** Whether a person is at a terminal to answer questions. */
  readonly isTerminal: boolean;
  /** Aborts when the person presses Ctrl-C. */
  readonly signal: AbortSignal;
  /** Writes a result to stdout: a string as text, an object as one line of JSON. */
  print(value: unknown): void;
  /** Writes raw text to stdout with no newline added (streamed answers). */
  write(text: string): void;
  /** Writes progress or a notice to stderr. */
  note(text: string): void;
  /** Asks a question at the terminal; undefined when there is none. */
  ask(question: string): Promise<string | undefined>;
  /** Reads one line typed at the terminal (interactive chat); undefined at end of input. */
  readLine(): Promise<string | undefined>;
}

/** One command: its help comes from these fields, examples first. */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly examples: readonly string[];
  /** More lines for --help, after the usage. */
  readonly details?: string;
  /** Hidden from group listings (background roles). */
  readonly hidden?: boolean;
  /** Resolves to the exit code when it is not 0 on success (a program run for the person). */
  run(argv: string[], io: Io): Promise<void | number>;
}

/** A group of commands, such as `lnk agent`. */
export interface Group {
  readonly summary: string;
  readonly commands: Readonly<Record<string, Command | Group>>;
}

/** Tells a group from a command. */
export function isGroup(entry: Command | Group): entry is Group {
  return "commands" in entry;
}
