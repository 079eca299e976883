import { dirname, join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import type { Env } from "../ask_adapter.ts";
import { ACP_COMMAND_EXAMPLE } from "../known.ts";

/**
 * Splits a command as a shell would its words (`agent --acp`, `"/opt/my agent/bin/x" --stdio`):
 * spaces part words, single and double quotes hold them together, a backslash keeps the next
 * character. No variables, globs or pipes: the words are the program and its arguments.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let has = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) words.push(word);
      word = "";
      has = false;
    } else {
      word += c;
      has = true;
    }
  }
  if (quote) {
    throw new LinkError("USAGE", `Cannot read the ACP command "${text}": a quote is not closed`, {
      hint: `Close the quote, such as --acp-command "${ACP_COMMAND_EXAMPLE}"`,
    });
  }
  if (has) words.push(word);
  if (words.length === 0 || words[0] === "") {
    throw new LinkError("USAGE", "The ACP command is empty", {
      hint: `Name the agent's command, such as --acp-command "${ACP_COMMAND_EXAMPLE}"`,
    });
  }
  return words;
}

/** Folders every sandbox shows already, read-only: nothing to grant for a program there. */
const SHOWN = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/libx32/"];

/** A program found for the command: where the PATH has it, and where it really is. */
interface Found {
  readonly path: string;
  readonly real: string;
}

/**
 * The command as the sandbox runs it, and what it needs to: the program found on the PATH (a
 * path as given), the interpreter its `#!` line names found the same way, and each argument
 * that is a file of this machine; each is granted read-only where it lives (its install's
 * node_modules, a bin folder's prefix, else its folder), unless the sandbox shows it already
 * (/usr and the like). The command's PATH inside puts their folders first.
 */
export async function resolveCommand(
  words: readonly string[],
  env: Env,
): Promise<{ command: string[]; read: string[]; path: string }> {
  const [program, ...args] = words;
  const found = await findProgram(program!, env);
  if (!found) {
    throw new LinkError(
      "HARNESS_MISSING",
      `Cannot find the ACP command's program "${program}" on your PATH`,
      {
        hint: `Install it, or give its full path in --acp-command`,
      },
    );
  }
  const programs = [found];
  const interpreter = await shebang(found.real);
  if (interpreter) {
    const named = interpreter[0] === "/usr/bin/env" ? interpreter[1] : interpreter[0];
    // Found as it is inside, where the program's own folders come first on the PATH (an npm
    // install's node_modules/.bin holds the Node it was installed for).
    const own = [dirname(found.path), dirname(found.real), env.get("PATH") ?? ""].join(":");
    const more = named && await findProgram(named, { get: (n) => (n === "PATH" ? own : env.get(n)) });
    if (more) programs.push(more);
  }
  const files: string[] = [];
  for (const arg of args) {
    if (!arg.startsWith("/")) continue;
    const real = await Deno.realPath(arg).catch(() => undefined);
    if (real) files.push(real);
  }
  const read = new Set<string>();
  for (const p of programs) for (const at of [p.path, p.real]) read.add(grantRoot(at));
  for (const f of files) read.add(grantRoot(f));
  const dirs = [...new Set(programs.flatMap((p) => [dirname(p.path), dirname(p.real)]))];
  return {
    command: [found.path, ...args],
    read: [...read].filter((p) => !SHOWN.some((s) => p.startsWith(s) || `${p}/` === s)).sort(),
    path: [...dirs, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
  };
}

/** Where a file's install lives: its innermost node_modules, a bin folder's prefix, or its folder. */
function grantRoot(path: string): string {
  const parts = path.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at > 0) return parts.slice(0, at + 1).join("/");
  const dir = dirname(path);
  return dir.endsWith("/bin") && dirname(dir) !== "/" ? dirname(dir) : dir;
}

async function findProgram(name: string, env: Env): Promise<Found | undefined> {
  const candidates = name.includes("/")
    ? [name]
    : (env.get("PATH") ?? "").split(":").filter((d) => d.startsWith("/")).map((d) => join(d, name));
  for (const path of candidates) {
    if (!path.startsWith("/")) continue;
    try {
      const info = await Deno.stat(path);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) {
        return { path, real: await Deno.realPath(path) };
      }
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The words of a script's `#!` line, or undefined for a program that is not a script. */
async function shebang(path: string): Promise<string[] | undefined> {
  const file = await Deno.open(path).catch(() => undefined);
  if (!file) return undefined;
  try {
    const head = new Uint8Array(256);
    const n = await file.read(head);
    const text = new TextDecoder().decode(head.subarray(0, n ?? 0));
    if (!text.startsWith("#!")) return undefined;
    return text.slice(2).split("\n")[0]!.trim().split(/\s+/).filter((w) => w && !w.startsWith("-"));
  } finally {
    file.close();
  }
}
