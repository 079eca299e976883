/**
 * Sandbox tests as an ordinary user: a child Deno under another uid (setpriv, as root) makes the
 * agent fixture in a home the test made for it and runs one script in its sandbox, so Link runs
 * as that user would run it (no cgroup of its own, its limits as rlimits). Ignored, with the reason
 * printed, where it cannot run: not root, no setpriv, a checkout that user cannot read.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentFixture, NO_BWRAP, type RunOptions, type RunResult } from "./sandbox.ts";

const CHECKOUT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const ENTRY = fileURLToPath(new URL("./_as_user_child.ts", import.meta.url));

/** A uid of its own for this test process, so no other process counts against its limits. */
export const OTHER_UID: number = 61000 + (Deno.pid % 4000);

/** Why these tests cannot run here, or undefined. */
export const NO_OTHER_USER: string | undefined = NO_BWRAP ?? await otherUserProblem();
if (NO_OTHER_USER && !NO_BWRAP) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`sandbox tests as another user ignored: ${NO_OTHER_USER}`);
}

async function otherUserProblem(): Promise<string | undefined> {
  if (Deno.uid() !== 0) return "acting as another user needs root";
  for (let dir = CHECKOUT; dir !== "/"; dir = dirname(dir)) {
    if (!((await Deno.stat(dir)).mode! & 0o001)) return `the checkout is not open to other users ("${dir}")`;
  }
  const probe = await new Deno.Command("setpriv", {
    args: [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", "--", "true"],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  return probe?.success ? undefined : "setpriv is not installed or does not run";
}

/**
 * One attack, twice: in a sandbox Link runs as root, and in one Link runs as an ordinary user.
 * The script runs in the agent's Home, its output asserted whole; `after` looks at what it left
 * there, on the host. `needs` is why it cannot run here, if it cannot.
 */
export function attackTwice(
  name: string,
  script: string,
  expected: string,
  after: (home: string) => Promise<void>,
  options: { needs?: string; run?: RunOptions } = {},
): void {
  Deno.test({
    name: `attack as root: ${name}`,
    ignore: (NO_BWRAP ?? options.needs) !== undefined,
    async fn() {
      await using fx = await agentFixture();
      const r = await fx.sh(script, { cwd: fx.agentHome, ...options.run });
      assert.equal(r.stdout, expected, r.stderr);
      await after(fx.agentHome);
    },
  });
  Deno.test({
    name: `attack as a user: ${name}`,
    ignore: (NO_OTHER_USER ?? options.needs) !== undefined,
    async fn() {
      await using r = await runAsUser(script, options.run);
      assert.equal(r.stdout, expected, r.stderr);
      await after(r.agentHome);
    },
  });
}

let denoDir: Promise<string> | undefined;

/** A copy of Deno's npm cache the other user owns: it cannot read root's, nor download. */
export function userDenoDir(): Promise<string> {
  denoDir ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "lnk-user-deno-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    const from = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME")!, ".cache", "deno");
    const copy = await new Deno.Command("cp", { args: ["-r", join(from, "npm"), join(dir, "npm")] }).output();
    if (!copy.success) {
      throw new Error(`cannot copy Deno's npm cache: ${new TextDecoder().decode(copy.stderr)}`);
    }
    await new Deno.Command("chown", { args: ["-R", `${OTHER_UID}:${OTHER_UID}`, dir] }).output();
    return dir;
  })();
  return denoDir;
}

/** A home of the other user's, removed at dispose. */
export async function userHome(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "lnk-user-home-" });
  await Deno.chown(path, OTHER_UID, OTHER_UID);
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Runs `lnk <args>` (main.ts) as the other user with `home` as its HOME. */
export async function lnkAsUser(home: string, args: readonly string[]): Promise<RunResult> {
  const out = await new Deno.Command("setpriv", {
    args: [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", "--", Deno.execPath()]
      .concat(["run", "-A", "--cached-only", "--config", join(CHECKOUT, "deno.json")])
      .concat([join(CHECKOUT, "main.ts"), ...args]),
    clearEnv: true,
    env: { HOME: home, DENO_DIR: await userDenoDir(), NO_COLOR: "1", PATH: "/usr/local/bin:/usr/bin:/bin" },
    cwd: home,
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** What one script printed in the sandbox of a fixture made and run as the other user. */
export interface UserRun extends RunResult, AsyncDisposable {
  /** The fixture's home, which this test process may look into. */
  readonly home: string;
  /** The agent's Home folder in it. */
  readonly agentHome: string;
}

/**
 * Runs `script` as the other user in its fixture's sandbox, in the agent's Home unless `cwd`
 * says; dispose removes the fixture.
 */
export async function runAsUser(script: string, options: RunOptions = {}): Promise<UserRun> {
  const home = await Deno.makeTempDir({ prefix: "lnk-sbx-user-" });
  const agentHome = join(home, "Link", "Agents", "main", "Home");
  await Deno.chown(home, OTHER_UID, OTHER_UID);
  const env = await userDenoDir();
  const out = await new Deno.Command("setpriv", {
    args: [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", "--", Deno.execPath()]
      .concat(["run", "-A", "--cached-only", "--config", join(CHECKOUT, "deno.json"), ENTRY, home])
      .concat([JSON.stringify({ cwd: agentHome, ...options, script })]),
    clearEnv: true,
    env: { HOME: home, DENO_DIR: env, NO_COLOR: "1", PATH: "/usr/local/bin:/usr/bin:/bin" },
    cwd: home,
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  const errors = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`the run as uid ${OTHER_UID} failed: ${errors}`);
  const result = JSON.parse(text.split("\n").at(-1) ?? "{}") as RunResult;
  return {
    ...result,
    home,
    agentHome,
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
    },
  };
}
