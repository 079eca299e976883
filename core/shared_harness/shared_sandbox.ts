import { join } from "node:path";
import { LinkError, logger, READY_PREFIX, roleArgv, TextLineReader } from "../base/mod.ts";
import {
  checkUserNamespaces,
  planSandbox,
  requireUserNamespaces,
  resolveSandboxInput,
  runSandboxed,
  type SandboxProcess,
} from "../../sandbox/mod.ts";
import { HOST_EVENT_PREFIX, type HostEvent, type HostJoin } from "../harness/serve/host_protocol.ts";
import type { AgentContext } from "../agent/mod.ts";
import { sandboxIdentity, sharedHolder } from "../agent/mod.ts";
import { type HarnessPolicy, policySandboxFields } from "../agent/grants/mod.ts";

const log = logger("harness");

/** Where a shared harness keeps its own home (its HOME inside), per owner, in ~/.lnk. */
export function sharedHarnessHome(ctx: AgentContext, owner: string): string {
  return join(ctx.paths.lnk, "owners", owner, "harness");
}

/** One member of a shared sandbox: its folders as planned, to tell a changed agent from the same. */
export function memberPrint(policy: HarnessPolicy): string {
  return JSON.stringify({
    files: policy.spec.files,
    home: policy.sandboxAgent.home,
    agent: policy.sandboxAgent.agentDir,
  });
}

/**
 * The shared harness's sandbox (PRC-2): one bubblewrap for all of one owner's agents that reach
 * out only through their proxies, holding each one's Home and Agent/ per its own [files] and its
 * socket folder, and Link Harness's host role serving them as they join.
 */
export interface SharedSandbox extends AsyncDisposable {
  readonly pid: number;
  readonly status: Promise<Deno.CommandStatus>;
  /** Each member's print (memberPrint) as planned, by ID. */
  readonly members: ReadonlyMap<string, string>;
  /** The harness's HOME inside, as a real path. */
  readonly home: string;
  /** Each member's folders as the sandbox shows them, for hiding them from the others' commands. */
  readonly folders: ReadonlyMap<string, readonly string[]>;
  /** Hands the host one agent; resolves once it serves it, or throws why not. */
  join(request: HostJoin): Promise<void>;
  /** Has the host let the agent go; resolves once its turns have settled. */
  leave(id: string): Promise<void>;
}

/** Plans and starts the shared sandbox for these agents of one owner (their policies); the first one's grants lead. */
export async function startSharedSandbox(
  ctx: AgentContext,
  owner: string,
  policies: readonly HarnessPolicy[],
): Promise<SharedSandbox> {
  requireUserNamespaces(await checkUserNamespaces());
  const [lead, ...rest] = policies;
  if (!lead) throw new LinkError("SERVICE_FAILED", "Cannot start the shared harness: it has no agent");
  const homes = new Set(policies.map((p) => p.sandboxAgent.home));
  const hide = [...new Set(policies.flatMap((p) => p.hide))].filter((h) => !homes.has(h));
  const netOf = (p: HarnessPolicy) => ctx.paths.net(p.agent.id);
  for (const p of policies) await Deno.mkdir(netOf(p), { recursive: true, mode: 0o700 });
  const input = await resolveSandboxInput({
    spec: lead.spec,
    source: lead.source,
    paths: ctx.paths,
    ...policySandboxFields(lead),
    // One home for the one harness; each agent's commands get their own in it (hostedPlaces).
    harnessHome: sharedHarnessHome(ctx, owner),
    netDir: netOf(lead),
    command: roleArgv(["harness", "host"]),
    hide,
    // One sandbox, so one uid: the owner's shared harness's own, given every member's folders.
    identity: await sandboxIdentity(ctx.paths, sharedHolder(owner)),
    also: rest.map((p) => ({ spec: p.spec, source: p.source, agent: p.sandboxAgent, netDir: netOf(p) })),
  });
  const sandbox = await runSandboxed(planSandbox(input), {
    stdin: "piped",
    stdout: "piped",
    stderr: "log",
    members: policies.map((p) => p.agent.id),
    ownSession: true,
  });
  const all = [input.agent!, ...(input.also ?? []).map((a) => a.agent)];
  return await hostOf(sandbox, {
    home: input.harnessHome,
    members: new Map(policies.map((p) => [p.agent.id, memberPrint(p)])),
    folders: new Map(all.map((a) => [a.id, [a.home, a.agentDir]])),
  });
}

/** Talks to the host role in a started sandbox: its ready line, then one answer per command. */
async function hostOf(
  sandbox: SandboxProcess,
  known: Pick<SharedSandbox, "home" | "members" | "folders">,
): Promise<SharedSandbox> {
  const waiting = new Map<string, PromiseWithResolvers<HostEvent>>();
  const ready = Promise.withResolvers<void>();
  const exited = sandbox.status.then((s) => {
    const gone = new LinkError("SERVICE_FAILED", `The shared harness exited (code ${s.code})`);
    ready.reject(gone);
    for (const w of waiting.values()) w.reject(gone);
    waiting.clear();
  });
  const onLine = (line: string) => {
    if (line.startsWith(READY_PREFIX)) return ready.resolve();
    if (!line.startsWith(HOST_EVENT_PREFIX)) return toLog(`${line}\n`);
    const event = JSON.parse(line.slice(HOST_EVENT_PREFIX.length)) as HostEvent;
    const id = "joined" in event ? event.joined : "left" in event ? event.left : event.failed;
    waiting.get(id)?.resolve(event);
    waiting.delete(id);
  };
  const lines = new TextLineReader(sandbox.child.stdout);
  void (async () => {
    try {
      for (let line = await lines.next(); line !== undefined; line = await lines.next()) onLine(line);
    } catch { /* the sandbox ended */ }
  })();
  try {
    await ready.promise;
  } catch (err) {
    await sandbox.stop();
    throw err;
  }
  const writer = sandbox.child.stdin.getWriter();
  const ask = async (id: string, command: unknown): Promise<HostEvent> => {
    const answer = Promise.withResolvers<HostEvent>();
    waiting.get(id)?.reject(new Error("asked again"));
    waiting.set(id, answer);
    await writer.write(new TextEncoder().encode(`${JSON.stringify(command)}\n`));
    return await answer.promise;
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      await writer.close().catch(() => {});
      await sandbox.stop();
      await exited;
    })();
  log.info("Shared harness sandbox started", { pid: sandbox.pid, agents: [...known.members.keys()] });
  return {
    ...known,
    pid: sandbox.pid,
    status: sandbox.status,
    async join(request) {
      const event = await ask(request.agent.id, { join: request });
      if ("failed" in event) {
        throw new LinkError("SERVICE_FAILED", `The shared harness cannot serve the agent: ${event.error}`, {
          hint: "Run `lnk agent logs` to see what it said",
        });
      }
    },
    async leave(id) {
      await ask(id, { leave: id }).catch(() => {});
    },
    [Symbol.asyncDispose]: stop,
  };
}

function toLog(text: string): void {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  } catch { /* no log to write to */ }
}
