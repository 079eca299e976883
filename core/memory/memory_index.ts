import { DatabaseSync } from "node:sqlite";
import { dirnamePath, LinkError, logger } from "../base/mod.ts";
import { chunksOf } from "./memory_chunks.ts";
import { listMemoryFiles, readMemoryFile } from "./memory_files.ts";
import type { MemoryHit } from "./memory_hit.ts";
import type { MemoryOrigin } from "./memory_source.ts";
import { loadVec, type VecLoad } from "./vec_extension.ts";
import { ftsQuery } from "./fts_query.ts";
import type { Embedder } from "./embedder.ts";

const log = logger("memory");

/** What memory's index file is made of; a file of another version is made again from the files. */
const SCHEMA_VERSION = "2";
/** How many texts go to the embeddings provider in one request. */
const EMBED_BATCH = 32;
/** Reciprocal rank fusion's constant: how much the first few places of either ranking weigh. */
const FUSION_K = 20;

const SCHEMA = `
create table meta(key text primary key, value text not null);
create table files(path text primary key, mtime real not null, size integer not null, hash text not null);
create table chunks(id integer primary key, path text not null, origin text not null, text text not null);
create index chunks_path on chunks(path);
create virtual table chunks_fts using fts5(text, tokenize = 'unicode61 remove_diacritics 2');
`;

/** What a refresh changed. */
export interface Refreshed {
  readonly files: number;
  readonly read: number;
  readonly dropped: number;
}

/**
 * One agent's memory index (MEM-1): a SQLite file outside every sandbox with FTS5 for words and a
 * sqlite-vec table for meaning, made from the agent's notes and conversations and made again from
 * them whenever it is missing, of another version, or corrupt (said in the log). It is only ever
 * a copy: the files are what memory is.
 */
export class MemoryIndex implements Disposable {
  readonly path: string;
  /** Whether sqlite-vec loaded: without it the index searches by words alone, saying why. */
  readonly vec: VecLoad;
  readonly #agentFolder: string;
  readonly #storeDatabase: string | undefined;
  readonly #db: DatabaseSync;

  private constructor(
    path: string,
    where: { agentFolder: string; storeDatabase?: string },
    opened: { db: DatabaseSync; vec: VecLoad },
  ) {
    this.path = path;
    this.#agentFolder = where.agentFolder;
    this.#storeDatabase = where.storeDatabase;
    this.#db = opened.db;
    this.vec = opened.vec;
  }

  /**
   * Opens (or makes) the index at `path` for the agent's `Agent/` folder; a broken one is made
   * again. `cache` is the machine's cache folder, where sqlite-vec is loaded from; `vecSource` a
   * sqlite-vec file other than npm's; `storeDatabase` the SQLite store's database, indexed too.
   */
  static async open(
    path: string,
    options: { agentFolder: string; cache: string; vecSource?: string; storeDatabase?: string },
  ): Promise<MemoryIndex> {
    await Deno.mkdir(dirnamePath(path), { recursive: true, mode: 0o700 });
    try {
      return new MemoryIndex(path, options, await openChecked(path, options));
    } catch (err) {
      if (err instanceof LinkError) throw err;
      log.warn("The memory index is unreadable: it is made again from the agent's files", {
        path,
        error: err instanceof Error ? err.message : String(err),
      });
      for (const suffix of ["", "-wal", "-shm", "-journal"]) await Deno.remove(path + suffix).catch(() => {});
      return new MemoryIndex(path, options, await openChecked(path, options));
    }
  }

  /** Reads what changed among the agent's files since the last refresh, dropping what is gone. */
  async refresh(): Promise<Refreshed> {
    const listed = await listMemoryFiles(this.#agentFolder, { storeDatabase: this.#storeDatabase });
    const known = new Map<string, { mtime: number; size: number; hash: string }>();
    for (const row of this.#db.prepare("select path, mtime, size, hash from files").all()) {
      known.set(String(row.path), {
        mtime: Number(row.mtime),
        size: Number(row.size),
        hash: String(row.hash),
      });
    }
    let read = 0;
    const seen = new Set<string>();
    for (const file of listed) {
      seen.add(file.path);
      const was = known.get(file.path);
      if (was && was.mtime === file.mtime && was.size === file.size) continue;
      const text = file.text ?? await readMemoryFile(this.#agentFolder, file);
      const hash = text === undefined ? "" : await textHash(text);
      // The same words with a new time (a copy, a move, a restore): kept as they are, vectors and all (MEM-8).
      if (was && text !== undefined && was.hash === hash) {
        this.#db.prepare("update files set mtime = ?, size = ? where path = ?").run(
          file.mtime,
          file.size,
          file.path,
        );
        continue;
      }
      this.#transaction(() => {
        this.#drop(file.path);
        if (text === undefined) return;
        for (const chunk of chunksOf(file.path, text)) {
          const { lastInsertRowid } = this.#db.prepare(
            "insert into chunks(path, origin, text) values (?, ?, ?)",
          )
            .run(file.path, JSON.stringify(chunk.origin), chunk.text);
          this.#db.prepare("insert into chunks_fts(rowid, text) values (?, ?)").run(
            lastInsertRowid,
            chunk.text,
          );
        }
        this.#db.prepare("insert into files(path, mtime, size, hash) values (?, ?, ?, ?)").run(
          file.path,
          file.mtime,
          file.size,
          hash,
        );
      });
      read++;
    }
    let dropped = 0;
    for (const path of known.keys()) {
      if (seen.has(path)) continue;
      this.#transaction(() => this.#drop(path));
      dropped++;
    }
    return { files: listed.length, read, dropped };
  }

  /** How many pieces it holds, and how many of them have a vector of `model`. */
  counts(model?: string): { chunks: number; embedded: number } {
    const chunks = Number(this.#db.prepare("select count(*) n from chunks").get()!.n);
    if (model === undefined || this.#meta("vec_model") !== model || !this.#hasVec()) {
      return { chunks, embedded: 0 };
    }
    const embedded = Number(this.#db.prepare("select count(*) n from chunks_vec").get()!.n);
    return { chunks, embedded };
  }

  /**
   * Gives pieces without a vector one from `embedder` (at most `max`, every one unless told), a
   * batch at a time: a batch is written only once its whole answer is read and checked, so a
   * provider that fails leaves no half batch.
   */
  async embedPending(
    embedder: Embedder,
    options: { max?: number; signal?: AbortSignal } = {},
  ): Promise<number> {
    let done = 0;
    const max = options.max ?? Infinity;
    if (!this.vec.loaded) return 0;
    while (done < max) {
      const vecReady = this.#meta("vec_model") === embedder.model && this.#hasVec();
      const rows = vecReady
        ? this.#db.prepare(
          "select id, text from chunks where id not in (select rowid from chunks_vec) order by id limit ?",
        ).all(EMBED_BATCH)
        : this.#db.prepare("select id, text from chunks order by id limit ?").all(EMBED_BATCH);
      if (rows.length === 0) return done;
      const vectors = await embedder.embed(rows.map((r) => String(r.text)), options.signal);
      this.#transaction(() => {
        this.#ensureVec(embedder.model, vectors[0]!.length);
        rows.forEach((row, i) => {
          this.#db.prepare("insert into chunks_vec(rowid, embedding) values (?, ?)").run(
            BigInt(Number(row.id)),
            vectorBlob(vectors[i]!),
          );
        });
      });
      done += rows.length;
    }
    return done;
  }

  /**
   * The best `limit` pieces for `query`: by FTS5's rank of its words, and, given the query's
   * vector, by distance in meaning, the two rankings blended (reciprocal rank fusion).
   */
  search(
    query: string,
    options: { limit: number; vector?: { model: string; values: number[] }; exclude?: string },
  ): MemoryHit[] {
    const wide = options.limit * 4;
    const byWords = new Map<number, number>();
    const match = ftsQuery(query);
    if (match) {
      const rows = this.#db.prepare(
        "select rowid from chunks_fts where chunks_fts match ? order by bm25(chunks_fts) limit ?",
      ).all(match, wide);
      rows.forEach((row, i) => byWords.set(Number(row.rowid), i));
    }
    const byMeaning = new Map<number, number>();
    const vector = options.vector;
    if (vector && this.#meta("vec_model") === vector.model && this.#hasVec()) {
      const dims = Number(this.#meta("vec_dims"));
      if (vector.values.length === dims) {
        const rows = this.#db.prepare(
          "select rowid, distance from chunks_vec where embedding match ? and k = ? order by distance",
        ).all(vectorBlob(vector.values), wide);
        rows.forEach((row, i) => byMeaning.set(Number(row.rowid), i));
      }
    }
    const ids = new Set([...byWords.keys(), ...byMeaning.keys()]);
    const scored = [...ids].map((id) => {
      const w = byWords.get(id);
      const m = byMeaning.get(id);
      const score = (w === undefined ? 0 : 1 / (FUSION_K + w + 1)) +
        (m === undefined ? 0 : 1 / (FUSION_K + m + 1));
      const by = [
        ...(w === undefined ? [] : ["words" as const]),
        ...(m === undefined ? [] : ["meaning" as const]),
      ];
      return { id, score, by };
    }).sort((a, b) => b.score - a.score || a.id - b.id);
    const hits: MemoryHit[] = [];
    for (const { id, score, by } of scored) {
      if (hits.length >= options.limit) break;
      const row = this.#db.prepare("select origin, text from chunks where id = ?").get(id)!;
      const origin = JSON.parse(String(row.origin)) as MemoryOrigin;
      if (origin.kind === "chat" && origin.conversation === options.exclude) continue;
      hits.push({ origin, text: String(row.text), score, by });
    }
    return hits;
  }

  #drop(path: string): void {
    const ids = this.#db.prepare("select id from chunks where path = ?").all(path).map((r) => Number(r.id));
    for (const id of ids) {
      this.#db.prepare("delete from chunks_fts where rowid = ?").run(id);
      if (this.#hasVec()) this.#db.prepare("delete from chunks_vec where rowid = ?").run(BigInt(id));
    }
    this.#db.prepare("delete from chunks where path = ?").run(path);
    this.#db.prepare("delete from files where path = ?").run(path);
  }

  /** The vector table for `model`'s vectors of `dims`, made again (empty) when either changed. */
  #ensureVec(model: string, dims: number): void {
    if (this.#hasVec() && this.#meta("vec_model") === model && Number(this.#meta("vec_dims")) === dims) {
      return;
    }
    this.#db.exec("drop table if exists chunks_vec");
    this.#db.exec(
      `create virtual table chunks_vec using vec0(embedding float[${dims}] distance_metric=cosine)`,
    );
    this.#setMeta("vec_model", model);
    this.#setMeta("vec_dims", String(dims));
  }

  #hasVec(): boolean {
    if (!this.vec.loaded) return false;
    return this.#db.prepare("select 1 from sqlite_master where name = 'chunks_vec'").get() !== undefined;
  }

  #meta(key: string): string | undefined {
    const row = this.#db.prepare("select value from meta where key = ?").get(key);
    return row === undefined ? undefined : String(row.value);
  }

  #setMeta(key: string, value: string): void {
    this.#db.prepare("insert or replace into meta(key, value) values (?, ?)").run(key, value);
  }

  #transaction(work: () => void): void {
    this.#db.exec("begin immediate");
    try {
      work();
      this.#db.exec("commit");
    } catch (err) {
      this.#db.exec("rollback");
      throw err;
    }
  }

  [Symbol.dispose](): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

/** Opens the file with sqlite-vec loaded (when it loads) and checks it whole; a new file gets the schema. */
async function openChecked(
  path: string,
  options: { cache: string; vecSource?: string },
): Promise<{ db: DatabaseSync; vec: VecLoad }> {
  // Made 0600 before SQLite writes a byte of it (MEM-1: the index is its user's alone).
  const created = await Deno.open(path, { create: true, write: true, mode: 0o600 });
  created.close();
  await Deno.chmod(path, 0o600);
  const db = new DatabaseSync(path, { allowExtension: true, timeout: 5_000 });
  try {
    const vec = await loadVec(db, { cache: options.cache, source: options.vecSource });
    if (!vec.loaded) log.warn("Memory searches by words alone", { why: vec.why });
    const check = db.prepare("pragma quick_check").get();
    if (check?.quick_check !== "ok") throw new Error(`quick_check says ${JSON.stringify(check)}`);
    db.exec("pragma journal_mode = wal");
    const tables = db.prepare("select name from sqlite_master where name = 'meta'").get();
    if (tables === undefined) {
      db.exec(SCHEMA);
      db.prepare("insert into meta(key, value) values ('version', ?)").run(SCHEMA_VERSION);
    }
    const version = db.prepare("select value from meta where key = 'version'").get();
    if (version?.value !== SCHEMA_VERSION) {
      throw new Error(`its version is ${JSON.stringify(version?.value)}`);
    }
    return { db, vec };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** What a file said, as SHA-256 in hex: a file whose time changed and words did not is not read again. */
async function textHash(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A vector as sqlite-vec takes it: little-endian float32s. */
function vectorBlob(values: readonly number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}
