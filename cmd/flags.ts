import { parseArgs } from "node:util";
import { LinkError } from "../core/base/mod.ts";
import { didYouMean } from "./did_you_mean.ts";

/** Which flags a command takes. */
export interface FlagSpec {
  string?: readonly string[];
  boolean?: readonly string[];
  /** Flags that may be given more than once (strings). */
  multiple?: readonly string[];
  /** How many positional arguments, at most. */
  positionals?: number;
  /** Short names: `{ y: "yes" }`. */
  short?: Readonly<Record<string, string>>;
}

/** Parsed flags: strings, booleans and string lists by name, plus the positionals. */
export interface Flags {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** Everything after `--`, untouched. */
  rest: string[];
  string(name: string): string | undefined;
  bool(name: string): boolean;
  list(name: string): string[];
}

/** Parses a command's arguments strictly: an unknown flag is a USAGE error with a "did you mean". */
export function parseFlags(argv: readonly string[], spec: FlagSpec, usage = ""): Flags {
  const dash = argv.indexOf("--");
  const head = dash >= 0 ? argv.slice(0, dash) : [...argv];
  const rest = dash >= 0 ? argv.slice(dash + 1) : [];
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }> = {};
  for (const name of spec.string ?? []) options[name] = { type: "string" };
  for (const name of spec.multiple ?? []) options[name] = { type: "string", multiple: true };
  for (const name of spec.boolean ?? []) options[name] = { type: "boolean" };
  for (const [s, name] of Object.entries(spec.short ?? {})) if (options[name]) options[name].short = s;
  let parsed;
  try {
    parsed = parseArgs({ args: head, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw usageError(err instanceof Error ? err.message : String(err), Object.keys(options), usage);
  }
  const max = spec.positionals ?? 0;
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max]!;
    throw new LinkError(
      "USAGE",
      `Cannot read the argument "${extra}": this command takes ${max === 0 ? "none" : `at most ${max}`}`,
      {
        hint: usage ? `Usage: ${usage}` : "Run the command with --help to see what it takes",
      },
    );
  }
  const values = parsed.values as Flags["values"];
  return {
    values,
    positionals: parsed.positionals,
    rest,
    string: (name) => values[name] as string | undefined,
    bool: (name) => values[name] === true,
    list: (name) => (values[name] as string[] | undefined) ?? [],
  };
}

function usageError(message: string, known: string[], usage: string): LinkError {
  const flag = /'(-{1,2}[^'\s]+)'/.exec(message)?.[1];
  if (flag && /Unknown option/.test(message)) {
    const guess = didYouMean(flag.replace(/^-+/, "").split("=")[0]!, known);
    return new LinkError("USAGE", `Cannot run the command: unknown flag "${flag}"`, {
      hint: guess
        ? `Did you mean --${guess}?`
        : usage
        ? `Usage: ${usage}`
        : "Run it with --help to see its flags",
    });
  }
  const clean = message.replace(/\. To specify.*$/s, "").replace(/\.$/, "");
  return new LinkError("USAGE", `Cannot run the command: ${clean}`, {
    hint: usage ? `Usage: ${usage}` : "Run it with --help to see its flags",
  });
}
