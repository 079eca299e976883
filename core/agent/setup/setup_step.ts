import { LinkError, type LinkPaths, TextLineReader } from "../../base/mod.ts";
import { type AdapterAnswer, AdapterInput, readAnswer, writeInput } from "../../adapters/mod.ts";
import {
  checkUserNamespaces,
  INSIDE_PROXY_PORT,
  planSandbox,
  portRelayRules,
  type ProxyUpstream,
  relayPortsIn,
  type RelayRule,
  requireUserNamespaces,
  resolveSandboxInput,
  runSandboxed,
  SandboxSpec,
  startSandboxProxy,
  wantsProxy,
} from "../../../sandbox/mod.ts";
import type { SandboxIdentity } from "../../spec/mod.ts";

/** The setup steps Link runs at a start, each sandboxed by Link (SBX-13, SBX-14, ADP-15). */
export const SETUP_STEPS = ["install", "configure", "link", "health"] as const;
export type SetupStep = typeof SETUP_STEPS[number];

/**
 * How long each step may run: an install may take minutes, configure and link less; the health
 * check answers at once or not at all.
 */
export const STEP_BOUND_MS: Readonly<Record<SetupStep, number>> = {
  install: 15 * 60_000,
  configure: 2 * 60_000,
  link: 5 * 60_000,
  health: 10_000,
};

/** How much a step may print on stdout: its answer is one JSON object. */
const MAX_ANSWER_BYTES = 1 << 20;

/** Where each step's sandbox reaches (SBX-13, SBX-14): the internet by host, or this machine's ports. */
export interface StepNetwork {
  /** Hosts its own proxy reaches on 80 and 443 ("*" any public host); none is no proxy at all. */
  readonly hosts: readonly string[];
  /** Ports of this machine's loopback relayed in (the health check's: the harness's own). */
  readonly ports?: readonly number[];
  /**
   * The person's own package registries ("host:port"), reached at whatever address they resolve to,
   * private or reserved ones too: the install step's alone, as the person configured them.
   */
  readonly registries?: readonly string[];
}

/** The adapter a step runs: its command's words, and the folder of its program to show. */
export interface StepAdapter {
  readonly command: readonly string[];
  readonly dir?: string;
  /** Variables it needs besides the step's (Link's own program run from source: Deno's cache). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One setup step to run. */
export interface StepRun {
  readonly paths: LinkPaths;
  readonly harness: string;
  /**
   * The adapter as a command the step's name follows: `lnk-<harness>` found on the PATH, its
   * folder shown read-only inside (`dir`); or, for an adapter built into lnk, `lnk harness adapter
   * <harness>`, Link's own program being shown in every sandbox already.
   */
  readonly adapter: StepAdapter;
  readonly step: SetupStep;
  readonly input: AdapterInput;
  /** The step's HOME inside, writable (the install folder, or the agent's harness home). */
  readonly home: string;
  /** More folders shown read-only inside, beside the adapter's own. */
  readonly read?: readonly string[];
  readonly network: StepNetwork;
  /** As root: the unprivileged uid the step runs as (SBX-1). */
  readonly identity?: SandboxIdentity;
  /** Its own bound; STEP_BOUND_MS's unless told. */
  readonly boundMs?: number;
  /** Each line the step prints on stderr, as it prints it (progress on a terminal). */
  readonly onLine?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** How its proxy reaches upstream: tests point it at loopback fakes. */
  readonly proxy?: ProxyUpstream;
  /** The relay role's command line inside; `lnk sandbox relay` unless told. */
  readonly launcher?: readonly string[];
}

/**
 * Runs one setup step, `lnk-<harness> <step> --json` with its input on stdin, in a sandbox of its
 * own (SBX-13): its HOME writable, the adapter's folder read-only, a proxy of its own reaching
 * only the hosts given (none: no network at all), and the ports given relayed in. Reads its
 * answer to the step's schema. A step that exits non-zero, prints garbage or runs past its bound
 * is a LinkError naming the adapter, the step and the last line of its stderr.
 */
export async function runSetupStep<S extends SetupStep>(
  run: StepRun & { step: S },
): Promise<AdapterAnswer<S> | undefined> {
  const boundMs = run.boundMs ?? STEP_BOUND_MS[run.step];
  const spec = SandboxSpec.parse({
    files: {},
    paths: { read: run.adapter.dir ? [run.adapter.dir] : [] },
    internet: { hosts: [...run.network.hosts] },
    localhost: { ports: [...(run.network.ports ?? [])] },
  });
  requireUserNamespaces(await checkUserNamespaces());
  await using stack = new AsyncDisposableStack();
  await Deno.mkdir(run.home, { recursive: true, mode: 0o700 });
  await Deno.mkdir(run.paths.netRoot, { recursive: true, mode: 0o700 });
  const netDir = await Deno.makeTempDir({ dir: run.paths.netRoot, prefix: "setup-" });
  stack.defer(() => Deno.remove(netDir, { recursive: true }).catch(() => {}));
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), boundMs);
  stack.defer(() => clearTimeout(timer));
  const signal = run.signal ? AbortSignal.any([bound.signal, run.signal]) : bound.signal;
  const relays: RelayRule[] = [];
  const dirs = run.adapter.dir ? `${run.adapter.dir}:` : "";
  let env: Record<string, string> = { ...run.adapter.env, PATH: `${dirs}/usr/local/bin:/usr/bin:/bin` };
  if (wantsProxy(spec)) {
    const proxy = stack.use(
      await startSandboxProxy(netDir, spec, {
        signal,
        upstream: run.proxy,
        registries: run.network.registries,
      }),
    );
    relays.push({ kind: "tcp-to-unix", port: INSIDE_PROXY_PORT, socket: proxy.socket });
    env = { ...env, ...proxy.env };
  }
  stack.use(await relayPortsIn(netDir, spec.localhost.ports, { signal }));
  relays.push(...portRelayRules(netDir, spec.localhost.ports));
  const plan = planSandbox(
    await resolveSandboxInput({
      spec,
      paths: run.paths,
      harnessHome: run.home,
      // Link's own folders (the install folder), shown though ~/.lnk is hidden: no grant reaches there.
      readOnly: await existing(run.read ?? []),
      netDir,
      command: [...run.adapter.command, run.step, "--json"],
      env,
      relays,
      launcher: run.launcher,
      identity: run.identity,
    }),
  );
  const sandbox = stack.use(
    await runSandboxed(plan, { stdin: "piped", stdout: "piped", stderr: "piped", signal }),
  );
  const input = `${JSON.stringify(AdapterInput.parse(run.input))}\n`;
  const [out, last, status] = await Promise.all([
    readCapped(sandbox.child.stdout, MAX_ANSWER_BYTES),
    lastLine(sandbox.child.stderr, run.onLine),
    sandbox.status,
    writeInput(sandbox.child.stdin, input),
  ]);
  const said = last ? `: ${last}` : "";
  const yourself = run.adapter.dir ? `lnk-${run.harness}` : `lnk harness adapter ${run.harness}`;
  const hint = `Run \`${yourself} ${run.step} --json\` yourself to see what it says; see docs/adapters.md`;
  if (bound.signal.aborted) {
    throw new LinkError(
      "TIMEOUT",
      `The adapter of harness "${run.harness}" did not finish \`${run.step}\` within ${
        boundMs / 1000
      } s${said}`,
      { hint },
    );
  }
  if (run.signal?.aborted) {
    throw new LinkError("SERVICE_FAILED", `\`${run.step}\` of harness "${run.harness}" was stopped`, {
      hint,
    });
  }
  if (out.over) {
    throw new LinkError(
      "SERVICE_FAILED",
      `The adapter of harness "${run.harness}" printed more than ${MAX_ANSWER_BYTES} bytes at \`${run.step}\``,
      { hint },
    );
  }
  if (!status.success) {
    throw new LinkError(
      "SERVICE_FAILED",
      `The adapter of harness "${run.harness}" failed \`${run.step}\` (exit ${status.code})${said}`,
      { hint, cause: { exit: status.code } },
    );
  }
  const text = out.text.trim();
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    throw new LinkError(
      "SERVICE_FAILED",
      `The adapter of harness "${run.harness}" answered \`${run.step}\` with "${
        text.slice(0, 60)
      }", not JSON${last ? ` (its stderr: ${last})` : ""}`,
      { hint },
    );
  }
  return readAnswer(run.harness, run.step, raw);
}

/** The folders that are there: one not made yet (no install) has nothing to show. */
async function existing(folders: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    if (await Deno.stat(folder).then((s) => s.isDirectory, () => false)) found.push(folder);
  }
  return found;
}

/** Reads stderr to its end, handing each line on; the last line not blank. */
async function lastLine(
  stream: ReadableStream<Uint8Array>,
  onLine: ((line: string) => void) | undefined,
): Promise<string> {
  let last = "";
  const reader = new TextLineReader(stream);
  for (;;) {
    const line = await reader.next().catch(() => undefined);
    if (line === undefined) return last;
    const trimmed = line.trim();
    if (!trimmed) continue;
    last = trimmed.slice(0, 500);
    onLine?.(last);
  }
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ text: string; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    if (at + c.length > all.length) break;
    all.set(c, at);
    at += c.length;
  }
  return { text: new TextDecoder().decode(all), over: size > max };
}
