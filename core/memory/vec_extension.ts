import type { DatabaseSync } from "node:sqlite";
import { atomicWrite, joinPath } from "../base/mod.ts";

/** sqlite-vec in a database: loaded, or not and why (the index then searches by words alone). */
export type VecLoad = { readonly loaded: true } | { readonly loaded: false; readonly why: string };

/**
 * Loads sqlite-vec (`vec0.so`) into `db`. The extension is npm's (resolved by its package), or the
 * file `source` names, loaded from a copy in a folder named by its SHA-256 in the machine's cache folder: in
 * a compiled lnk npm's file sits in the binary's own file system, which the system's loader
 * cannot open, so source and binary load it the same way. An extension that cannot be read or
 * loaded leaves memory searching by words alone, saying why.
 */
export async function loadVec(
  db: DatabaseSync,
  options: { cache: string; source?: string },
): Promise<VecLoad> {
  let path: string;
  try {
    // Read and checked at each open (a few per process): a copy changed meanwhile is written again.
    path = await copyToCache(options.cache, options.source);
  } catch (err) {
    return { loaded: false, why: `sqlite-vec's extension cannot be read: ${messageOf(err)}` };
  }
  try {
    db.loadExtension(path);
    return { loaded: true };
  } catch (err) {
    return { loaded: false, why: `sqlite-vec's extension does not load on this machine: ${messageOf(err)}` };
  }
}

async function copyToCache(cache: string, source: string | undefined): Promise<string> {
  const from = source ?? await npmPath();
  const bytes = await Deno.readFile(from);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  // The file keeps its own name: SQLite finds the extension's entry point by it (vec0 → sqlite3_vec_init).
  const path = joinPath(cache, "sqlite-vec", hex, from.slice(from.lastIndexOf("/") + 1));
  const kept = await Deno.readFile(path).catch(() => undefined);
  if (!kept || kept.length !== bytes.length || !kept.every((b, i) => b === bytes[i])) {
    await atomicWrite(path, bytes, { mode: 0o600 });
  }
  return path;
}

async function npmPath(): Promise<string> {
  const { getLoadablePath } = await import("sqlite-vec");
  return getLoadablePath();
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
