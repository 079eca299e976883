import { isAbsolute, join, normalize, resolve } from "node:path";
import { LinkError } from "../../base/mod.ts";

/**
 * Finds the program argv[0] names and checks it against [commands] (SBX-20): "*" allows any; a
 * bare name is allowed when it is listed and is found on the harness's PATH; a path is allowed
 * when it is listed, or is where a listed name is found. The program is then run by that path,
 * so nothing is looked up again. Returns the program's path; refuses with LinkError "REFUSED".
 */
export async function checkCommand(
  argv0: string,
  options: { allow: readonly string[]; cwd: string; path: string },
): Promise<string> {
  const program = argv0.includes("/")
    ? normalize(resolve(options.cwd, argv0))
    : await findOnPath(argv0, options.path);
  if (program === undefined || !(await isExecutableFile(program))) {
    throw new LinkError("REFUSED", `Cannot run "${argv0}": no such program`, {
      hint: argv0.includes("/") ? "Check the path" : "Name a program on PATH, or give its path",
    });
  }
  if (options.allow.includes("*")) return program;
  if (!argv0.includes("/") && options.allow.includes(argv0)) return program;
  for (const entry of options.allow) {
    const allowed = entry.includes("/") ? normalize(entry) : await findOnPath(entry, options.path);
    if (allowed === program) return program;
  }
  throw new LinkError("REFUSED", `Cannot run "${argv0}": it is not among the programs your grants allow`, {
    hint: `Allowed ([commands]): ${
      options.allow.join(", ") || "none"
    }; your owner adds one with \`lnk agent allow\``,
  });
}

/** The first executable file named `name` in a PATH's absolute folders. */
export async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(":")) {
    if (!isAbsolute(dir)) continue; // "" and relative entries would look in the working folder
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}
