import { writeAll } from "./conn_io.ts";
import { dirnamePath as dirname, joinPath as join } from "./file_path.ts";

/**
 * Writes a file so a reader sees the old bytes or the new ones, never half: a temp file beside it,
 * flushed, then renamed over it. The file is its user's alone (0600) unless `mode` says otherwise.
 * A temp file left by a write killed mid-way is named `.<uuid>.tmp` (see isTempName).
 */
export async function atomicWrite(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${crypto.randomUUID()}.tmp`);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: options.mode ?? 0o600 });
  try {
    await writeAll(file, bytes);
    await file.sync();
  } finally {
    file.close();
  }
  try {
    // The umask may have narrowed the mode at create; set it exactly.
    if (options.mode !== undefined) await Deno.chmod(tmp, options.mode);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Whether a file name is one of atomicWrite's temp files: never a file of its own. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

const TEMP_NAME = /^\.[0-9a-f-]{36}\.tmp$/;

/** Reads a text file, or "" when it does not exist. */
export async function readTextOrEmpty(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

/** Reads a text file, or undefined when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}
