import type { z } from "zod";
import { LinkError } from "../base/mod.ts";
import { findPlugin } from "../plugins/mod.ts";
import {
  type AdapterAnswer,
  type AdapterCommand,
  AdapterInput,
  ANSWERS,
  CONTRACT_VERSION,
  type ContractAnswer,
} from "./contract.ts";

/** How long an adapter may take to answer one command, and how much it may print. */
export const ADAPTER_TIMEOUT_MS = 10_000;
export const ADAPTER_MAX_BYTES = 1 << 20;

/** An adapter Link ships: answered in this process, to the same schemas (the `lnk adapter` role's). */
export interface BuiltInAdapter {
  readonly harness: string;
  /** Its answer to a command as JSON would carry it; `{}` for one it has nothing to say to. */
  answer(command: AdapterCommand, input: AdapterInput, env: Env): unknown | Promise<unknown>;
  /**
   * Its endpoint's launcher, when its stdio command is one of lnk's own (`lnk harness launch
   * <harness> ...`, run by the hub in the sandbox): the exit code of what it ran.
   */
  launch?(args: string[], signal: AbortSignal): Promise<number>;
  /**
   * Variables its setup steps run with, read here, outside their sandbox, where the person's own
   * config is: the registry npm or pip installs from, which the step's sandbox cannot read.
   */
  stepEnv?(env: Env): Promise<Record<string, string>>;
}

/** The variables an adapter is found and run with. */
export interface Env {
  get(name: string): string | undefined;
}

/** An adapter found: one Link ships, or an `lnk-<harness>` program on the PATH. */
export type Adapter =
  | { readonly harness: string; readonly builtIn: BuiltInAdapter }
  | { readonly harness: string; readonly path: string };

/** How one command is asked. */
export interface AskOptions {
  readonly input?: AdapterInput;
  readonly env: Env;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

/**
 * Finds a harness's adapter: Link's own by name, else `lnk-<harness>` on the PATH (CLI-8);
 * HARNESS_MISSING naming where it looked when there is neither.
 */
export async function findAdapter(
  harness: string,
  options: { env: Env; builtIns: readonly BuiltInAdapter[] },
): Promise<Adapter> {
  const builtIn = options.builtIns.find((b) => b.harness === harness);
  if (builtIn) return { harness, builtIn };
  const plugin = await findPlugin(harness, options.env);
  if (plugin) return { harness, path: plugin.path };
  throw new LinkError("HARNESS_MISSING", `Cannot find the adapter of harness "${harness}"`, {
    hint: `Install its adapter as a program named lnk-${harness} on your PATH`,
  });
}

/**
 * Asks an adapter one command (`lnk-<harness> <command> --json`, its input on stdin) and reads its
 * answer to the command's schema. `{}` (or nothing printed) is "nothing to say": undefined. Each
 * way an adapter can fail is a LinkError naming it and what it did: an exit other than 0 (with its
 * stderr's first line), a hang past the timeout, more than the cap printed, an answer that is not
 * JSON or not the schema's (an unknown grant in needs among them).
 */
export async function askAdapter<C extends AdapterCommand>(
  adapter: Adapter,
  command: C,
  options: AskOptions,
): Promise<AdapterAnswer<C> | undefined> {
  const input = AdapterInput.parse(options.input ?? {});
  const raw = "builtIn" in adapter
    ? await adapter.builtIn.answer(command, input, options.env)
    : await runAdapter(adapter, command, input, options);
  return readAnswer(adapter.harness, command, raw);
}

/** Reads one answer to its command's schema; `{}` and nothing are undefined. */
export function readAnswer<C extends AdapterCommand>(
  harness: string,
  command: C,
  raw: unknown,
): AdapterAnswer<C> | undefined {
  if (raw === undefined || (isObject(raw) && Object.keys(raw).length === 0)) return undefined;
  if (!isObject(raw)) throw garbage(harness, command, "an answer that is not a JSON object");
  if (command === "needs" && "permissions" in raw) throw versionOne(harness);
  const parsed = (ANSWERS[command] as z.ZodType).safeParse(raw);
  if (!parsed.success) {
    const said = parsed.error.issues.slice(0, 3).map((issue) => {
      const where = issue.path.length ? issue.path.join(".") : "its answer";
      const unknown = issue.code === "unrecognized_keys"
        ? ` (${issue.keys.join(", ")}: not a grant Link knows)`
        : "";
      return `${where} ${issue.message}${unknown}`;
    }).join("; ");
    throw new LinkError(
      command === "needs" ? "SANDBOX_REFUSED" : "SERVICE_FAILED",
      `The adapter of harness "${harness}" answered \`${command}\` wrongly: ${said}`,
      { hint: `Update the adapter (lnk-${harness}), or tell its authors: see docs/adapters.md` },
    );
  }
  return parsed.data as AdapterAnswer<C>;
}

/**
 * Asks `contract` and checks the version (GRT-17): version 1 is refused, saying it is older than
 * this Link and to update it; a newer one that this Link is older. An adapter that says nothing to
 * `contract` is refused too, as it cannot be told from a version 1 one.
 */
export async function askContract(adapter: Adapter, options: AskOptions): Promise<ContractAnswer> {
  const answer = await askAdapter(adapter, "contract", options);
  if (!answer || answer.version < CONTRACT_VERSION) throw versionOne(adapter.harness);
  if (answer.version > CONTRACT_VERSION) {
    throw new LinkError(
      "UNSUPPORTED",
      `The adapter of harness "${adapter.harness}" speaks contract version ${answer.version}, newer than this Link's ${CONTRACT_VERSION}`,
      { hint: "Update Link (`lnk setup` from a newer release), or use an older release of the adapter" },
    );
  }
  return answer;
}

/** Whether a contract answer says the adapter answers a command (every command when it lists none). */
export function answers(contract: ContractAnswer, command: AdapterCommand): boolean {
  return contract.commands === undefined || command === "contract" || contract.commands.includes(command);
}

async function runAdapter(
  adapter: { harness: string; path: string },
  command: AdapterCommand,
  input: AdapterInput,
  options: AskOptions,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? ADAPTER_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? ADAPTER_MAX_BYTES;
  const timer = new AbortController();
  const signals = [timer.signal, ...(options.signal ? [options.signal] : [])];
  const id = setTimeout(() => timer.abort(), timeoutMs);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(adapter.path, {
      args: [command, "--json"],
      env: adapterEnv(options.env),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.any(signals),
    }).spawn();
  } catch (err) {
    clearTimeout(id);
    throw new LinkError("HARNESS_MISSING", `Cannot run the adapter of harness "${adapter.harness}"`, {
      hint: `Check that ${adapter.path} is a program you can run`,
      cause: err,
    });
  }
  try {
    const writing = writeInput(child.stdin, `${JSON.stringify(input)}\n`);
    const [out, err, status] = await Promise.all([
      readCapped(child.stdout, maxBytes),
      readCapped(child.stderr, 64 * 1024),
      child.status,
      writing,
    ]);
    if (timer.signal.aborted) {
      throw new LinkError(
        "TIMEOUT",
        `The adapter of harness "${adapter.harness}" did not answer \`${command}\` within ${
          timeoutMs / 1000
        } s`,
        { hint: `Run \`lnk-${adapter.harness} ${command} --json\` yourself to see where it hangs` },
      );
    }
    if (out.over) throw garbage(adapter.harness, command, `more than ${maxBytes} bytes`);
    if (!status.success) {
      const first = err.text.split("\n").find((l) => l.trim())?.trim() ?? "";
      throw new LinkError(
        "SERVICE_FAILED",
        `The adapter of harness "${adapter.harness}" failed \`${command}\` (exit ${status.code})${
          first ? `: ${first}` : ""
        }`,
        {
          hint: `Run \`lnk-${adapter.harness} ${command} --json\` yourself to see what it says`,
          cause: { exit: status.code },
        },
      );
    }
    const text = out.text.trim();
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw garbage(adapter.harness, command, `"${text.slice(0, 60)}", not JSON`);
    }
  } finally {
    clearTimeout(id);
  }
}

/** The adapter's environment: enough to run, never Link's own variables or a key. */
function adapterEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "TMPDIR"]) {
    const value = env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Writes an adapter command its input line and closes its stdin; one that exited unread is let be. */
export async function writeInput(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // It exited without reading its input: its status says the rest.
  }
}

/** Reads a stream to its end, keeping at most `max` bytes; `over` when it printed more. */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ text: string; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of stream) {
    if (over) continue;
    size += chunk.length;
    if (size > max) over = true;
    else chunks.push(chunk);
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) all.set(c, (at += c.length) - c.length);
  return { text: new TextDecoder().decode(all), over };
}

function garbage(harness: string, command: AdapterCommand, what: string): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    `The adapter of harness "${harness}" answered \`${command}\` with ${what}`,
    { hint: `Run \`lnk-${harness} ${command} --json\` yourself to see what it prints; see docs/adapters.md` },
  );
}

function versionOne(harness: string): LinkError {
  return new LinkError(
    "UNSUPPORTED",
    `The adapter of harness "${harness}" is older than this Link: it speaks contract version 1`,
    { hint: `Update the adapter (lnk-${harness}) to contract version ${CONTRACT_VERSION}` },
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
