import { join } from "node:path";
import { sha256Hex } from "../../base/mod.ts";

/** A file a check reads from inside, and the hash it has outside. */
export interface ReadTarget {
  /** The path inside the sandbox: the same as outside, since the sandbox binds each folder at its own path. */
  readonly inside: string;
  readonly sha256: string;
}

/** A file a check tries to create from inside, and where it would arrive outside. */
export interface WriteTarget {
  readonly inside: string;
  readonly outside: string;
  readonly token: string;
}

/**
 * What `lnk agent harness check` puts in place outside the sandbox before probing, removed at
 * dispose: canary files of random content in the places it tests (a hidden place must not show
 * them), names for files a probe tries to create, and listeners standing for this machine's other
 * ports. Nothing is written into a folder that does not exist.
 */
export class CheckSetup implements AsyncDisposable {
  #made: string[] = [];
  #listeners: Deno.Listener[] = [];
  #accepting: Promise<void>[] = [];
  readonly #tag = crypto.randomUUID().slice(0, 8);

  /** A canary in `dir`, or undefined when `dir` is none. */
  async canary(dir: string): Promise<ReadTarget | undefined> {
    if (!(await isDir(dir))) return undefined;
    const name = `.lnk-check-${this.#tag}-${this.#made.length}`;
    const text = `link check ${crypto.randomUUID()}\n`;
    await Deno.writeTextFile(join(dir, name), text, { createNew: true, mode: 0o600 });
    this.#made.push(join(dir, name));
    return { inside: join(dir, name), sha256: sha256Hex(text) };
  }

  /** An existing file to read from inside, by its hash; undefined when there is none. */
  async existing(path: string): Promise<ReadTarget | undefined> {
    try {
      return { inside: path, sha256: sha256Hex(await Deno.readFile(path)) };
    } catch {
      return undefined;
    }
  }

  /** A new file to create from inside in `dir`, looked for there outside; undefined when `dir` is none. */
  async writable(dir: string): Promise<WriteTarget | undefined> {
    if (!(await isDir(dir))) return undefined;
    const name = `.lnk-check-w-${this.#tag}-${this.#made.length}`;
    this.#made.push(join(dir, name));
    return { inside: join(dir, name), outside: join(dir, name), token: crypto.randomUUID() };
  }

  /** Whether a write probe's file arrived outside with its token. */
  async arrived(target: WriteTarget): Promise<boolean> {
    return (await Deno.readTextFile(target.outside).catch(() => "")) === target.token;
  }

  /**
   * A repository of its own in `dir` (a folder holding `.git/config`), made before the sandbox
   * starts so the start keeps its protected places; undefined when `dir` is none. Removed whole.
   */
  async repository(dir: string): Promise<string | undefined> {
    if (!(await isDir(dir))) return undefined;
    const repo = join(dir, `.lnk-check-r-${this.#tag}`);
    await Deno.mkdir(join(repo, ".git", "hooks"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(join(repo, ".git", "config"), "[core]\n\tbare = false\n", { mode: 0o600 });
    await Deno.writeTextFile(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n", { mode: 0o600 });
    this.#made.push(repo);
    return repo;
  }

  /** A port of this machine that nothing granted names: a listener on `hostname`, port 0. */
  listen(hostname: string): number {
    const listener = Deno.listen({ hostname, port: 0 });
    this.#listeners.push(listener);
    // Connections are accepted and dropped: only whether one arrives matters.
    this.#accepting.push((async () => {
      try {
        for await (const conn of listener) conn.close();
      } catch { /* closed */ }
    })());
    return listener.addr.port;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const listener of this.#listeners) {
      try {
        listener.close();
      } catch { /* closed */ }
    }
    await Promise.all(this.#accepting);
    for (const path of this.#made) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

async function isDir(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isDirectory ?? false;
}
