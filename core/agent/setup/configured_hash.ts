import { join } from "node:path";
import { z } from "zod";
import { atomicWrite, readTextIfExists } from "../../base/mod.ts";

/**
 * `.lnk/configured` in the harness home (ADP-1): the hash of what the adapter's `configure` read
 * and wrote, and the files it wrote, so the next start runs it only when one of them changed.
 */
export const ConfiguredRecord = z.strictObject({
  hash: z.string(),
  wrote: z.array(z.string()).default([]),
});
export type ConfiguredRecord = z.infer<typeof ConfiguredRecord>;

/**
 * What the hash covers (ADP-1): the harness's settings its configure reads (never the spec, the
 * model's key or the environment), the risks allowed and whether it is proxied (ADP-13), the
 * adapter's release (its program's own bytes: a rebuilt one keeps its version) and the harness's
 * (the release its install answered), the agent's ports.
 */
export interface ConfiguredInputs {
  readonly settings: unknown;
  readonly allowed: readonly string[];
  readonly proxied: boolean;
  readonly adapter: string;
  readonly release: string;
  readonly ports: { readonly endpoint: number; readonly block: number };
}

/** Where the record is in a harness home. */
export function configuredPath(harnessHome: string): string {
  return join(harnessHome, ".lnk", "configured");
}

/** The record kept, or undefined when there is none or it does not read. */
export async function readConfigured(harnessHome: string): Promise<ConfiguredRecord | undefined> {
  const text = await readTextIfExists(configuredPath(harnessHome));
  if (text === undefined) return undefined;
  try {
    const parsed = ConfiguredRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the record after a configure that succeeded. */
export async function writeConfigured(harnessHome: string, record: ConfiguredRecord): Promise<void> {
  await atomicWrite(configuredPath(harnessHome), `${JSON.stringify(record)}\n`);
}

/**
 * The hash of the inputs and of the bytes each file written holds now (a file gone hashes so), so
 * a harness editing its config, or a home moved without it, differs (ADP-2).
 */
export async function configuredHash(
  harnessHome: string,
  inputs: ConfiguredInputs,
  wrote: readonly string[],
): Promise<string> {
  const files: Record<string, string | null> = {};
  for (const path of [...wrote].sort()) files[path] = await fileHash(join(harnessHome, path));
  const text = JSON.stringify({ ...inputs, settings: sorted(inputs.settings), files });
  return await sha256(new TextEncoder().encode(text));
}

/** The sha256 of a file's bytes in hex, or null when it is not there (a folder hashes as null too). */
export async function fileHash(path: string): Promise<string | null> {
  try {
    return await sha256(await Deno.readFile(path));
  } catch {
    return null;
  }
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A value with its objects' keys in order, so the same settings hash the same. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}
