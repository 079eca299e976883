import { type Io, runCli as run } from "../../cmd/mod.ts";
import type { TempHome } from "./temp_home.ts";

/** What a command printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of an in-process run. */
export interface RunCliOptions {
  /** Answers typed at the terminal, in order; without them there is no terminal. */
  answers?: string[];
  /** Lines typed for an interactive session. */
  lines?: string[];
  signal?: AbortSignal;
  /** Called with each notice as the command writes it (to wait for one while it runs). */
  onNote?: (text: string) => void;
  /** Called with each result as the command prints it (a pairing code, say, while it waits). */
  onPrint?: (value: unknown) => void;
}

/** Runs `lnk <args>` in this process against a temporary home, capturing its output. */
export async function runCli(
  args: string[],
  home: TempHome,
  options: RunCliOptions = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const answers = [...(options.answers ?? [])];
  const lines = [...(options.lines ?? [])];
  const io: Io = {
    env: home.env,
    home: home.path,
    isTerminal: options.answers !== undefined,
    signal: options.signal ?? new AbortController().signal,
    print: (value) => {
      stdout += `${typeof value === "string" ? value : JSON.stringify(value)}\n`;
      options.onPrint?.(value);
    },
    write: (text) => void (stdout += text),
    note: (text) => {
      stderr += `${text}\n`;
      options.onNote?.(text);
    },
    ask: (question) => {
      if (options.answers === undefined) return Promise.resolve(undefined);
      stderr += `${question}\n`;
      return Promise.resolve(answers.shift() ?? "");
    },
    readLine: () => Promise.resolve(lines.shift()),
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}

/** Runs `lnk <args>` in-process and parses its --json output; fails on a non-zero exit. */
export async function runJson<T = Record<string, unknown>>(args: string[], home: TempHome): Promise<T> {
  const result = await runCli([...args, "--json"], home);
  if (result.code !== 0) {
    throw new Error(`lnk ${args.join(" ")} exited ${result.code}: ${result.stdout}${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}
