import { join } from "node:path";
import { closeFd, fdPath, openEntry, statFd, walkNoFollow } from "./walk_no_follow.ts";

/** One stand-in Link made for a protected place that was missing: an empty folder, or a file with `text`. */
export interface Placeholder {
  readonly path: string;
  readonly text?: string;
}

interface PlaceholderRecord {
  readonly pid: number;
  readonly start: string;
  readonly made: Placeholder[];
  /** Stand-ins another sandbox made that this one shows too, so that one's end leaves them. */
  readonly held: Placeholder[];
}

/**
 * The stand-ins of one sandbox, recorded in `~/.lnk/run/placeholders/` while it runs (a file per
 * sandbox naming its process). At its end each one still as made and held by no other running
 * sandbox is removed; a record whose process is gone is cleaned at the next start of any sandbox.
 * Everything here is synchronous, under a lock on the folder, so it fits the stretch that makes a
 * sandbox's descriptors and starts it.
 */
export class Placeholders {
  readonly #dir: string;
  readonly #file: string;
  readonly made: Placeholder[] = [];
  readonly held: Placeholder[] = [];
  #others = new Map<string, Placeholder>();
  static #count = 0;

  constructor(dir: string) {
    this.#dir = dir;
    this.#file = join(dir, `${Deno.pid}-${processStart(Deno.pid)}-${++Placeholders.#count}.json`);
  }

  /** Cleans what sandboxes that are gone left, and learns what running ones hold. */
  begin(): void {
    Deno.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    using _lock = lockDir(this.#dir);
    const { live, stale } = readRecords(this.#dir, this.#file);
    for (const record of live) for (const p of [...record.made, ...record.held]) this.#others.set(p.path, p);
    for (const { file, record } of stale) {
      for (const p of [...record.made, ...record.held]) if (!this.#others.has(p.path)) removeIfUnchanged(p);
      Deno.removeSync(file);
    }
  }

  /** Whether `path` is a stand-in of a running sandbox; if so this one holds it too. */
  holdIfOthers(path: string): boolean {
    const other = this.#others.get(path);
    if (other) this.held.push(other);
    return other !== undefined;
  }

  /** Writes the record: before the sandbox starts, so a crash leaves nothing unrecorded. */
  save(): void {
    if (this.made.length === 0 && this.held.length === 0) return;
    const record: PlaceholderRecord = {
      pid: Deno.pid,
      start: processStart(Deno.pid),
      made: this.made,
      held: this.held,
    };
    using _lock = lockDir(this.#dir);
    Deno.writeTextFileSync(this.#file, JSON.stringify(record), { mode: 0o600 });
  }

  /** Removes each stand-in still as made that no other running sandbox holds, and the record. */
  release(): void {
    if (this.made.length === 0 && this.held.length === 0) return;
    using _lock = lockDir(this.#dir);
    const { live } = readRecords(this.#dir, this.#file);
    const others = new Set(live.flatMap((r) => [...r.made, ...r.held].map((p) => p.path)));
    // Deepest first, so a folder made for one inside it (.local for .local/bin) goes after it.
    const mine = [...this.made, ...this.held].sort((a, b) => b.path.length - a.path.length);
    for (const p of mine) if (!others.has(p.path)) removeIfUnchanged(p);
    try {
      Deno.removeSync(this.#file);
    } catch { /* never saved */ }
  }
}

function readRecords(dir: string, own: string) {
  const live: PlaceholderRecord[] = [];
  const stale: { file: string; record: PlaceholderRecord }[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const file = join(dir, entry.name);
    if (!entry.isFile || !entry.name.endsWith(".json") || file === own) continue;
    let record: PlaceholderRecord;
    try {
      record = JSON.parse(Deno.readTextFileSync(file));
    } catch {
      continue;
    }
    if (processStart(record.pid) === record.start) live.push(record);
    else stale.push({ file, record });
  }
  return { live, stale };
}

/** Removes a stand-in if it is still what Link made: an empty folder, or a file holding only its text. */
function removeIfUnchanged(p: Placeholder): void {
  const at = p.path.lastIndexOf("/");
  let parent: number | undefined;
  try {
    // Never through a link: the record names real paths, so any link on the way is someone else's doing.
    parent = walkNoFollow(p.path.slice(0, at) || "/", { writable: ["/"], what: "a stand-in" }).fd;
    if (parent === undefined) return;
    const name = p.path.slice(at + 1);
    const fd = openEntry(parent, name);
    if (fd === undefined) return;
    const { type } = statFd(fd);
    closeFd(fd);
    if (p.text === undefined ? type !== "dir" : type !== "file") return;
    if (p.text !== undefined && Deno.readTextFileSync(fdPath(parent, name)) !== p.text) return;
    Deno.removeSync(fdPath(parent, name));
  } catch {
    // Changed, filled or gone since: it is someone's now, and stays.
  } finally {
    if (parent !== undefined) closeFd(parent);
  }
}

/** A process's start time (clock ticks since boot), so a reused pid is not taken for a running sandbox. */
function processStart(pid: number): string {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

function lockDir(dir: string): Disposable {
  const file = Deno.openSync(join(dir, ".lock"), { create: true, write: true, mode: 0o600 });
  file.lockSync(true);
  return {
    [Symbol.dispose]() {
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
