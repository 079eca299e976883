/** The sha256 of a value's JSON, in hex: what an adapter's `.lnk/<harness>-configured` holds (ADP-1). */
export async function hashOf(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The adapter itself, as ADP-1 covers it: its source files here, else the binary it is built into
 * (its path, size and time), so a rebuilt adapter of the same version configures again.
 */
export async function adapterHash(files: readonly URL[]): Promise<string> {
  const parts: string[] = [];
  for (const file of files) {
    try {
      parts.push(await Deno.readTextFile(file));
    } catch {
      const info = await Deno.stat(Deno.execPath()).catch(() => undefined);
      parts.push(`${Deno.execPath()}:${info?.size}:${info?.mtime?.getTime()}`);
    }
  }
  return await hashOf(parts);
}

/** Whether a value is a JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A config the harness may have written, as a JSON object: anything else (its own YAML or JSON5,
 * garbage) reads as none, so Link's settings win, written whole.
 */
export function jsonObjectOf(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
