/**
 * What every test that runs a real sandbox shares: one check for a working bubblewrap (tests are
 * ignored, with the reason printed, where it is missing), and an agent fixture in a temporary home
 * with everything a sandbox must hide beside what it must show, run in a real sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LinkPaths, roleArgv } from "../../core/base/mod.ts";
import {
  type FoldersMode,
  parseSandboxSpec,
  planSandbox,
  type RelayRule,
  resolveSandboxInput,
  runSandboxed,
  type SandboxPlan,
} from "../../sandbox/mod.ts";
import { SANDBOX_UIDS } from "../../core/spec/mod.ts";
import { type SandboxIdentity } from "../../core/spec/mod.ts";
import { runsAsRoot } from "../../core/spec/mod.ts";

/** The relay role as Link starts it inside a sandbox: `lnk sandbox relay` through main.ts. */
export const RELAY_LAUNCHER: readonly string[] = roleArgv(["sandbox", "relay"]);

/** Why sandboxes cannot run here, or undefined when a real one starts. */
export const NO_BWRAP: string | undefined = await bwrapProblem();
if (NO_BWRAP) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`sandbox tests ignored: ${NO_BWRAP}`);
}

async function bwrapProblem(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return "bubblewrap runs on Linux only";
  try {
    const out = await new Deno.Command("bwrap", {
      args: [
        "--unshare-user",
        "--unshare-net",
        "--unshare-pid",
        "--disable-userns",
        // Only what `true` needs: binding all of / would take in the mounts other tests' sandboxes
        // come and go with, and one vanishing mid-bind would fail the probe and skip every sandbox test.
        "--ro-bind",
        "/usr",
        "/usr",
        "--ro-bind-try",
        "/lib",
        "/lib",
        "--ro-bind-try",
        "/lib64",
        "/lib64",
        "/usr/bin/true",
      ],
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    return out.success
      ? undefined
      : `bwrap does not start here: ${new TextDecoder().decode(out.stderr).trim()}`;
  } catch (err) {
    return `bwrap is not installed (${err instanceof Error ? err.message : err})`;
  }
}

/** A test that needs a real sandbox: ignored, never passed, where bubblewrap cannot run. */
export function sandboxTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: NO_BWRAP !== undefined, fn });
}

/** The uid a fixture's sandbox runs as when the tests run as root: one of Link's range (SBX-1). */
export const TEST_IDENTITY: SandboxIdentity | undefined = runsAsRoot()
  ? { uid: SANDBOX_UIDS.first + 0x8000, gid: SANDBOX_UIDS.first + 0x8000 }
  : undefined;

export const AGENT_ID = "abc123def";
export const OTHER_ID = "zzz999zzz";

/** What one sandboxed run printed. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a fixture sandbox is planned. */
export interface RunOptions {
  spec?: string;
  folders?: FoldersMode;
  harnessWritesChats?: boolean;
  harnessWritesNotes?: boolean;
  env?: Record<string, string>;
  teams?: Record<string, string>;
  relays?: RelayRule[];
  tmpSize?: number;
  shmSize?: number;
  cwd?: string;
}

/** How Link Harness's own sandbox shows the agent's folders: it writes Agent/chats and its notes. */
export const LINK_HARNESS: RunOptions = { harnessWritesChats: true, harnessWritesNotes: true };

/** A temporary home with an agent "main", another agent, Link's state, units, keys and teams. */
export interface AgentFixture extends AsyncDisposable {
  readonly home: string;
  readonly paths: LinkPaths;
  readonly root: string;
  readonly agentHome: string;
  /** The agent's brain, `<root>/Agent`: each collection the grants show is bound at its own path in it. */
  readonly agentDir: string;
  readonly harnessHome: string;
  readonly netDir: string;
  plan(command: string[], options?: RunOptions): Promise<SandboxPlan>;
  /** Runs `/bin/sh -c script` in the agent's sandbox. */
  sh(script: string, options?: RunOptions): Promise<RunResult>;
}

const FILES: Record<string, string> = {
  ".lnk/machine.toml": "shared_bridge = false\n",
  [`.lnk/agents/${AGENT_ID}/settings.toml`]: 'id = "abc123def"\n',
  [`.lnk/agents/${OTHER_ID}/settings.toml`]: 'id = "zzz999zzz"\n',
  [`.lnk/agents/.keys/${AGENT_ID}`]: "agent-key-secret\n",
  [`.lnk/agents/.net/${OTHER_ID}/endpoint.sock`]: "",
  ".lnk/harnesses/link.toml": "[needs]\n",
  ".lnk/teams/alpha.toml": 'folder = "~/Link/Teams/alpha"\n',
  [`.config/systemd/user/lnk-agent-${AGENT_ID}.service`]: "[Service]\nExecStart=/usr/bin/lnk\n",
  ".ssh/id_ed25519": "PRIVATE KEY\n",
  "Link/Agents/main/Home/notes.txt": "my notes\n",
  "Link/Agents/main/Home/work/draft.md": "draft\n",
  "Link/Agents/main/Agent/instructions/agent.md": "# main\n",
  "Link/Agents/main/Agent/skills/s.md": "skill\n",
  "Link/Agents/main/Agent/chats/telegram:1/0001.json": "{}\n",
  "Link/Agents/main/Agent/memory/m.md": "memory\n",
  "Link/Agents/main/Agent/schedule/jobs.json": "[]\n",
  "Link/Agents/main/Config/spec.toml": "[run]\n",
  "Link/Agents/other/Home/secret.txt": "other agent's secret\n",
  "Link/Agents/other/Agent/instructions/agent.md": "# other\n",
  "Link/Agents/other/Config/sandbox.toml": '[network]\nmode = "host"\n',
  "Link/Teams/alpha/src/a.txt": "source\n",
  "Link/Teams/alpha/docs/d.txt": "docs\n",
  "Link/Teams/beta/b.txt": "beta\n",
};

/** Shell helpers for fixture scripts: `w <path>` tries to write, `r <path>` to read, each saying which. */
export const PRELUDE = `w() { ( echo x >> "$1" ) 2>/dev/null && echo "wrote $1" || echo "denied $1"; }
r() { cat "$1" 2>/dev/null || echo "denied $1"; }
`;

/** Makes the fixture, in `home` (an empty folder) when given; dispose removes it. */
export async function agentFixture(options: { home?: string } = {}): Promise<AgentFixture> {
  const home = await Deno.realPath(options.home ?? await Deno.makeTempDir({ prefix: "lnk-sbx-" }));
  // Readable by every user, so what keeps the sandbox out is the sandbox, never the file's mode (a
  // root-run sandbox is a uid of its own, TEST_IDENTITY).
  await Deno.chmod(home, 0o755);
  const paths = new LinkPaths(home);
  for (const [rel, text] of Object.entries(FILES)) {
    const path = join(home, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o755 });
    await Deno.writeTextFile(path, text, { mode: 0o644 });
  }
  const root = paths.agentFolder("main");
  const agentHome = join(root, "Home");
  const agentDir = join(root, "Agent");
  const harnessHome = join(paths.agentState(AGENT_ID), "harness");
  const netDir = paths.net(AGENT_ID);
  const plan = async (command: string[], options: RunOptions = {}) => {
    const specText = options.spec ?? "";
    const specPath = join(root, "Config", "sandbox.toml");
    await Deno.writeTextFile(specPath, specText);
    return planSandbox(
      await resolveSandboxInput({
        spec: parseSandboxSpec(specText, specPath),
        source: { path: specPath, text: specText },
        paths,
        agent: { id: AGENT_ID, name: "main", home: agentHome, agentDir },
        folders: options.folders,
        harnessWritesChats: options.harnessWritesChats,
        harnessWritesNotes: options.harnessWritesNotes,
        harnessHome,
        netDir,
        command,
        cwd: options.cwd,
        env: options.env,
        teams: options.teams,
        relays: options.relays,
        launcher: RELAY_LAUNCHER,
        identity: TEST_IDENTITY,
        tmpSize: options.tmpSize,
        shmSize: options.shmSize,
      }),
    );
  };
  return {
    home,
    paths,
    root,
    agentHome,
    agentDir,
    harnessHome,
    netDir,
    plan,
    async sh(script, options) {
      return await runPlan(await plan(["/bin/sh", "-c", PRELUDE + script], options));
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

/** Runs a plan to its end, stdin closed, collecting what it printed. */
export async function runPlan(plan: SandboxPlan): Promise<RunResult> {
  await using sandbox = await runSandboxed(plan, { stdin: "null", stdout: "piped", stderr: "piped" });
  const [stdout, stderr] = await Promise.all([text(sandbox.child.stdout), text(sandbox.child.stderr)]);
  const status = await sandbox.status;
  return { code: status.code, stdout, stderr };
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

/** A loopback echo server outside any sandbox: its port and what it was sent. */
export interface EchoServer extends AsyncDisposable {
  readonly port: number;
  readonly got: string[];
}

/** A loopback echo server outside any sandbox, recording what it was sent. */
export function echoServer(): EchoServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const got: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(1024);
      const n = await conn.read(buf);
      const text = new TextDecoder().decode(buf.subarray(0, n ?? 0));
      got.push(text);
      await conn.write(new TextEncoder().encode(`echo:${text}`));
      conn.close();
    }
  })();
  return {
    port: listener.addr.port,
    got,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving.catch(() => {});
    },
  };
}

/** A bash line sending "hi" to 127.0.0.1:<port> and printing the answer, or "refused". */
export const TALK = (port: number): string =>
  `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo hi >&3 && head -c 100 <&3 && echo) 2>/dev/null || echo refused`;

/**
 * One attempt of the attack suite, one test each: runs `script` in the agent's sandbox and
 * asserts exactly what it printed (each denial says "denied <path>" or what failed).
 */
export function attack(
  name: string,
  script: (fx: AgentFixture) => string,
  expected: string | ((fx: AgentFixture) => string),
  options: RunOptions | ((fx: AgentFixture) => RunOptions) = {},
): void {
  sandboxTest(`attack: ${name}`, async () => {
    await using fx = await agentFixture();
    const r = await fx.sh(script(fx), typeof options === "function" ? options(fx) : options);
    assert.equal(r.stdout, typeof expected === "function" ? expected(fx) : expected, r.stderr);
  });
}

/** A sandbox started by a child process of the test (_orphan_child.ts), ready, its holders reachable. */
export interface OrphanSandbox extends AsyncDisposable {
  /** The child process that started the sandbox: kill it to see the sandbox die with it. */
  readonly parent: Deno.ChildProcess;
  /** The FIFO the program and a daemon of its own hold open: it ends once every one is gone. */
  readonly out: ReadableStreamDefaultReader<string>;
}

/**
 * Starts _orphan_child.ts, whose sandbox's program and a daemon of its own sleep for ever holding
 * a FIFO in its home, and waits for the program's "ready" on it.
 */
export async function orphanSandbox(): Promise<OrphanSandbox> {
  const home = await Deno.makeTempDir({ prefix: "lnk-orphan-" });
  await Deno.mkdir(`${home}/harness`, { mode: 0o700 });
  const made = await new Deno.Command("mkfifo", { args: ["-m", "0600", `${home}/harness/out`] }).output();
  assert.ok(made.success);
  const entry = fileURLToPath(new URL("./_orphan_child.ts", import.meta.url));
  const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
  const parent = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", "--config", config, entry, home],
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const fifo = await Deno.open(`${home}/harness/out`, { read: true });
  const out = fifo.readable.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await out.read()).value, "ready\n");
  return {
    parent,
    out,
    async [Symbol.asyncDispose]() {
      try {
        parent.kill("SIGKILL");
      } catch { /* gone already */ }
      await parent.status;
      await out.cancel().catch(() => {});
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}
