import { join } from "node:path";

const SCRIPT = `
const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(Deno.args[0]) });
const out = Deno.stdout.writable.getWriter();
(async () => {
  for await (const chunk of Deno.stdin.readable) {
    let offset = 0;
    while (offset < chunk.length) offset += await conn.write(chunk.subarray(offset));
  }
})().catch(() => {});
const buf = new Uint8Array(4096);
for (;;) {
  const n = await conn.read(buf).catch(() => null);
  if (n === null) break;
  await out.write(buf.slice(0, n));
}
Deno.exit(0);
`;

const FLOOD_SCRIPT = `
const [port, count, send] = [Number(Deno.args[0]), Number(Deno.args[1]), Deno.args[2] ?? ""];
const tally = { opened: 0, failed: 0, closed: 0 };
const held = [];
const waiters = [];
const bytes = new TextEncoder().encode(send);
async function open() {
  let conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    tally.failed++;
    return;
  }
  tally.opened++;
  held.push(conn);
  if (bytes.length > 0) await conn.write(bytes).catch(() => {});
  const buf = new Uint8Array(4096);
  (async () => {
    while ((await conn.read(buf).catch(() => null)) !== null) { /* what the server says */ }
    tally.closed++;
    for (const waiter of waiters.splice(0)) waiter();
  })();
}
let next = 0;
await Promise.all(Array.from({ length: 100 }, async () => {
  while (next < count) {
    next++;
    await open();
  }
}));
const out = new TextEncoder();
Deno.stdout.writeSync(out.encode(JSON.stringify(tally) + "\\n"));
for await (const chunk of Deno.stdin.readable) {
  // "closed <n>": the tally once the server has hung up n of them; anything else: the tally now.
  const wanted = Number(/^closed (\\d+)/.exec(new TextDecoder().decode(chunk))?.[1] ?? 0);
  while (tally.closed < wanted) await new Promise((resolve) => waiters.push(resolve));
  Deno.stdout.writeSync(out.encode(JSON.stringify(tally) + "\\n"));
}
Deno.exit(0);
`;

/** Tells whether this test run may act as other users (root with setpriv), else why not. */
export async function otherUsersUnavailable(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return "places per user are tested on Linux only";
  if (Deno.uid() !== 0) return "acting as other users needs root";
  try {
    const { success } = await new Deno.Command("setpriv", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return success ? undefined : "setpriv does not run";
  } catch {
    return "setpriv is not installed";
  }
}

/**
 * A bridge caller running as another user (a child process under `uid` via setpriv), over TCP
 * on 127.0.0.1, so the bridge sees a real second user (BRG-13). Lines to it go to the socket;
 * the socket's bytes come back as lines.
 */
export class OtherUserClient implements AsyncDisposable {
  #child: Deno.ChildProcess;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;
  #buffer = "";
  #folder: string;

  private constructor(child: Deno.ChildProcess, folder: string) {
    this.#child = child;
    this.#folder = folder;
    this.#stdin = child.stdin.getWriter();
    this.#lines = child.stdout.pipeThrough(new TextDecoderStream())[Symbol.asyncIterator]();
  }

  /** Starts the caller as `uid`, its script in a folder of its own that it may read. */
  static async start(uid: number, port: number): Promise<OtherUserClient> {
    const { child, folder } = await runAs(uid, SCRIPT, [String(port)]);
    return new OtherUserClient(child, folder);
  }

  /**
   * Starts a flood as `uid`: `count` connections to `port`, 100 at a time, each sent `send` once
   * open and then held. Its lines tell `{"opened","failed","closed"}`: first once all were tried,
   * then at each `write` (`closed <n>\n`: once the server hung up n); `closed` counts those the
   * server hung up.
   */
  static async flood(uid: number, port: number, count: number, send = ""): Promise<OtherUserClient> {
    const { child, folder } = await runAs(uid, FLOOD_SCRIPT, [String(port), String(count), send]);
    return new OtherUserClient(child, folder);
  }

  /** The next line from the bridge; undefined once it hangs up. */
  async readLine(): Promise<string | undefined> {
    for (;;) {
      const at = this.#buffer.indexOf("\n");
      if (at >= 0) {
        const line = this.#buffer.slice(0, at);
        this.#buffer = this.#buffer.slice(at + 1);
        return line;
      }
      const next = await this.#lines.next();
      if (next.done) return undefined;
      this.#buffer += next.value;
    }
  }

  async write(text: string): Promise<void> {
    await this.#stdin.write(new TextEncoder().encode(text));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await this.#stdin.close().catch(() => {});
    while (!(await this.#lines.next()).done) { /* drain */ }
    await this.#child.status;
    await Deno.remove(this.#folder, { recursive: true });
  }
}

/** Runs a script as `uid` (setpriv), in a folder of its own that it may read. */
async function runAs(
  uid: number,
  source: string,
  args: string[],
): Promise<{ child: Deno.ChildProcess; folder: string }> {
  const folder = await Deno.makeTempDir({ prefix: "lnk-other-user-" });
  await Deno.chmod(folder, 0o755);
  const home = join(folder, "home");
  await Deno.mkdir(home);
  await Deno.chown(home, uid, uid);
  const script = join(folder, "other_user_client.ts");
  await Deno.writeTextFile(script, source, { mode: 0o644 });
  const child = new Deno.Command("setpriv", {
    args: [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", Deno.execPath(), "run", "--no-config"]
      .concat(["--no-lock", "--allow-net", script, ...args]),
    env: { HOME: home, DENO_DIR: join(home, "deno"), NO_COLOR: "1" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  return { child, folder };
}
