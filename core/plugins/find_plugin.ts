import { join } from "node:path";

/** A `lnk-<name>` program found on the PATH. */
export interface Plugin {
  readonly name: string;
  readonly path: string;
}

/** Finds `lnk-<name>` on the PATH, as `lnk <name>` plugs it in (CLI-8); undefined when absent. */
export async function findPlugin(
  name: string,
  env: { get(name: string): string | undefined },
): Promise<Plugin | undefined> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return undefined;
  for (const dir of (env.get("PATH") ?? "").split(":").filter(Boolean)) {
    const path = join(dir, `lnk-${name}`);
    try {
      const info = await Deno.stat(path);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return { name, path };
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Runs a plugin with the terminal's streams and returns its exit code. */
export async function runPlugin(
  plugin: Plugin,
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): Promise<number> {
  const child = new Deno.Command(plugin.path, {
    args: [...args],
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}
