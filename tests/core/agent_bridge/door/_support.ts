import { fileURLToPath } from "node:url";
import { type AgentKey, decodeKey, makeProof, newChallenge } from "../../../../core/base/mod.ts";

const CONFIG = fileURLToPath(new URL("../../../../deno.json", import.meta.url));
const CHILD = fileURLToPath(new URL("./_flood_child.ts", import.meta.url));

/** What _flood_child.ts serves, in a process of its own. */
export interface FloodTarget extends AsyncDisposable {
  door: number;
  bridge: number;
  proxy: number;
  agent: { id: string; owner: string; key: AgentKey };
  /** Its soft limit on open descriptors once serving. */
  limit: number;
  /** The door's unproven places now. */
  unproven(): Promise<number>;
  /** Resolves once the door holds no connection. */
  doorIdle(): Promise<void>;
  /** Resolves with the first log line of the child's matching, seen since it started. */
  logged(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/**
 * Starts _flood_child.ts; with `headroom`, its descriptor limit is that many above what it holds
 * serving; with `soft`, it is that.
 */
export async function startFloodTarget(
  limits: { headroom?: number; soft?: number } = {},
): Promise<FloodTarget> {
  const args = ["run", "-A", "--cached-only", "--config", CONFIG, CHILD];
  if (limits.headroom !== undefined) args.push("--limit", String(limits.headroom));
  if (limits.soft !== undefined) args.push("--soft", String(limits.soft));
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env: { LNK_LOG: "info" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines())[
    Symbol.asyncIterator
  ]();
  const log = new LogWatch(child.stderr);
  const first = await lines.next();
  if (first.done) throw new Error("_flood_child.ts ended before its ready line");
  const ready = JSON.parse(first.value);
  const stdin = child.stdin.getWriter();
  return {
    door: ready.door,
    bridge: ready.bridge,
    proxy: ready.proxy,
    agent: { id: ready.id, owner: "local-test", key: decodeKey(ready.key) },
    limit: ready.limit,
    async unproven() {
      await stdin.write(new TextEncoder().encode("status\n"));
      const next = await lines.next();
      return JSON.parse(next.value ?? "{}").unproven;
    },
    async doorIdle() {
      await stdin.write(new TextEncoder().encode("idle\n"));
      await lines.next();
    },
    logged: (match) => log.first(match),
    async [Symbol.asyncDispose]() {
      await stdin.close();
      while (!(await lines.next()).done) { /* drain */ }
      await child.status;
      await log.done;
    },
  };
}

/** Reads a child's stderr log lines as they come, so a test can wait for one. */
class LogWatch {
  #seen: Record<string, unknown>[] = [];
  #waiters: {
    match: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }[] = [];
  readonly done: Promise<void>;

  constructor(stderr: ReadableStream<Uint8Array>) {
    this.done = (async () => {
      for await (const line of stderr.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines())) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        this.#seen.push(entry);
        for (const waiter of [...this.#waiters]) {
          if (!waiter.match(entry)) continue;
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          waiter.resolve(entry);
        }
      }
    })();
  }

  first(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const seen = this.#seen.find(match);
    if (seen) return Promise.resolve(seen);
    const { promise, resolve } = Promise.withResolvers<Record<string, unknown>>();
    this.#waiters.push({ match, resolve });
    return promise;
  }
}

function splitLines(): TransformStream<string, string> {
  let buffer = "";
  return new TransformStream({
    transform(chunk, controller) {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        controller.enqueue(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
      }
    },
    flush(controller) {
      if (buffer) controller.enqueue(buffer);
    },
  });
}

/** A connection that speaks lines: a raw socket, or a caller running as another user. */
export interface LineConn {
  write(text: string): Promise<void>;
  readLine(): Promise<string | undefined>;
}

/** One HTTP/1.1 response read line by line: its status, headers, and its body lines (chunked or by length). */
export async function readResponse(
  conn: LineConn,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const start = (await conn.readLine()) ?? "";
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(start)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (
    let line = (await conn.readLine())?.replace(/\r$/, "");
    line;
    line = (await conn.readLine())?.replace(/\r$/, "")
  ) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = "";
  if (headers["transfer-encoding"] === "chunked") {
    for (;;) {
      const size = parseInt((await conn.readLine()) ?? "0", 16);
      if (!size) {
        await conn.readLine();
        break;
      }
      // The chunk's lines (ASCII JSON), then its CR LF: size + 2 bytes in all.
      for (let got = 0; got < size + 2;) {
        const line = (await conn.readLine()) ?? "";
        got += line.length + 1;
        body += `${line}\n`;
      }
    }
  }
  return { status, headers, body };
}

/**
 * Makes a proved call by hand on `conn` as Link's client does (BRG-1, BRG-2): the endpoint's proof
 * on this connection, then `session/new` proved with the challenge it gave. Resolves with the
 * second answer's status.
 */
export async function provedCallOn(conn: LineConn, agent: { id: string; key: AgentKey }): Promise<number> {
  const asked = newChallenge();
  await conn.write(
    `GET /_link/proof HTTP/1.1\r\nHost: x\r\nLink-Agent-Id: ${agent.id}\r\nLink-Challenge: ${asked}\r\n\r\n`,
  );
  const proof = await readResponse(conn);
  if (proof.status !== 200) return proof.status;
  const challenge = proof.headers["link-challenge"] ?? "";
  const mac = makeProof(agent.key, "link-caller-v1", challenge, agent.id);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } });
  await conn.write(
    `POST /acp HTTP/1.1\r\nHost: x\r\nLink-Agent-Id: ${agent.id}\r\nLink-Proof: ${challenge} ${mac}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body}`,
  );
  return (await readResponse(conn)).status;
}
