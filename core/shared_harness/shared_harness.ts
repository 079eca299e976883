import { type Clock, LinkError, logger } from "../base/mod.ts";
import { hostedPlaces, type HostJoin } from "../harness/serve/host_protocol.ts";
import { listAgents } from "../agent/mod.ts";
import type { AgentContext } from "../agent/mod.ts";
import { harnessPolicy } from "../agent/grants/mod.ts";
import { loadSettings } from "../agent/mod.ts";
import { Linger } from "../base/mod.ts";
import { sharedRefusal } from "../agent/launch/mod.ts";
import { memberPrint, type SharedSandbox, startSharedSandbox } from "./shared_sandbox.ts";
import type { SharedHarnessState } from "../agent/sharing/mod.ts";

const log = logger("harness");

/**
 * One owner's shared harness (PRC-2..4, PRC-15): one sandbox with Link Harness serving every
 * agent of the owner that joins, each through its own proxy with its own key and grants. The
 * sandbox holds the folders of the owner's agents that may share when it starts; an agent whose
 * grants changed since is served by a fresh sandbox once none is joined, and refused meanwhile
 * (its bridge then runs it in a sandbox of its own). It ends its linger after its last agent.
 */
export class SharedHarness implements AsyncDisposable {
  readonly #ctx: AgentContext;
  readonly #owner: string;
  /** The agents served, each with the number of its join, so a gone bridge's end lets go of its own join alone. */
  readonly #joined = new Map<string, number>();
  #joins = 0;
  readonly #linger: Linger;
  readonly #ended = Promise.withResolvers<void>();
  #sandbox: SharedSandbox | undefined;
  #ending = false;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: AgentContext, owner: string, options: { lingerMs: number; clock?: Clock }) {
    this.#ctx = ctx;
    this.#owner = owner;
    this.#linger = new Linger({ ms: options.lingerMs, clock: options.clock, onEnd: () => void this.#end() });
    this.#linger.set(0);
  }

  /** Resolves once it has ended: after its linger, or disposed. */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  state(): SharedHarnessState {
    return {
      owner: this.#owner,
      pid: this.#sandbox?.pid ?? null,
      agents: [...this.#joined.keys()],
      lingering: this.#linger.lingering,
      ending: this.#ending,
    };
  }

  /** Serves one agent of this owner; resolves with its sandbox's PID once the host serves it. */
  join(request: HostJoin): Promise<{ pid: number; status: Promise<Deno.CommandStatus>; join: number }> {
    return this.#serial(async () => {
      if (this.#ending) {
        throw new LinkError("SERVICE_FAILED", "The shared harness is ending", { hint: "Start again" });
      }
      const id = request.agent.id;
      const settings = await loadSettings(this.#ctx.paths, id);
      if (settings.owner !== this.#owner) {
        throw new LinkError("REFUSED", `Agent "${settings.name}" is not of owner ${this.#owner}`, {
          hint: "A shared harness serves one owner's agents only (PRC-4)",
        });
      }
      const policy = await harnessPolicy(this.#ctx, settings);
      const refusal = sharedRefusal(policy);
      if (refusal) {
        throw new LinkError("SANDBOX_REFUSED", `Agent "${settings.name}" cannot share a harness: ${refusal}`);
      }
      const print = memberPrint(policy);
      let sandbox = this.#sandbox;
      if (sandbox && sandbox.members.get(id) !== print) {
        const others = [...this.#joined.keys()].filter((a) => a !== id);
        if (others.length > 0) {
          throw new LinkError(
            "CONFLICT",
            `The shared harness was started before agent "${settings.name}" was created or its [files] changed`,
            { hint: "It runs in a sandbox of its own until the owner's other agents sleep or stop" },
          );
        }
        await this.#stopSandbox();
        sandbox = undefined;
      }
      sandbox ??= await this.#startSandbox();
      // The other agents' folders and their commands' own places, and /dev/shm, which all would share.
      const hideFromRun = [
        ...[...sandbox.folders].filter(([other]) => other !== id).flatMap(([other, folders]) => {
          const places = hostedPlaces(sandbox.home, other);
          return [...folders, places.home, places.tmp];
        }),
        "/dev/shm",
      ];
      await sandbox.join({ ...request, agent: { ...request.agent, hideFromRun } });
      const join = ++this.#joins;
      this.#joined.set(id, join);
      this.#linger.set(this.#joined.size);
      return { pid: sandbox.pid, status: sandbox.status, join };
    });
  }

  /**
   * Lets one agent go, once its turns have settled; the linger starts after the last. With `join`,
   * only that join: a bridge's answer ending late never lets go of the agent joined again since.
   */
  leave(id: string, join?: number): Promise<void> {
    return this.#serial(async () => {
      const current = this.#joined.get(id);
      if (current === undefined || (join !== undefined && join !== current)) return;
      this.#joined.delete(id);
      await this.#sandbox?.leave(id);
      this.#linger.set(this.#joined.size);
    });
  }

  async #startSandbox(): Promise<SharedSandbox> {
    const members = [];
    for (const agent of await listAgents(this.#ctx)) {
      if (agent.owner !== this.#owner) continue;
      const policy = await harnessPolicy(this.#ctx, agent);
      if (!sharedRefusal(policy)) members.push(policy);
    }
    const sandbox = await startSharedSandbox(this.#ctx, this.#owner, members);
    this.#sandbox = sandbox;
    sandbox.status.then((status) => {
      if (this.#sandbox !== sandbox) return;
      log.error("Shared harness sandbox exited unbidden", { owner: this.#owner, code: status.code });
      this.#sandbox = undefined;
      this.#joined.clear();
      this.#linger.set(0);
    });
    return sandbox;
  }

  async #stopSandbox(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    await sandbox?.[Symbol.asyncDispose]();
  }

  async #end(): Promise<void> {
    this.#ending = true;
    log.info("Shared harness ended after its linger", { owner: this.#owner });
    await this[Symbol.asyncDispose]();
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => {});
    return next;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#ending = true;
    this.#linger[Symbol.dispose]();
    await this.#queue;
    await this.#stopSandbox();
    this.#ended.resolve();
  }
}
