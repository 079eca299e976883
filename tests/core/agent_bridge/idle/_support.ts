import { join } from "node:path";
import { type AgentKey, encodeKey, newAgentKey } from "../../../../core/base/mod.ts";
import { miniHarnessHandler } from "../../../../core/adapters/mini/mod.ts";
import {
  type AgentDoor,
  askHarnessBusy,
  type IdleCheck,
  openAgentDoor,
} from "../../../../core/agent_bridge/door/mod.ts";
import {
  type AskCaller,
  type EndpointHandler,
  type EndpointServer,
  serveEndpoint,
} from "../../../../connections/mod.ts";
import type { FakeClock } from "../../../support/mod.ts";
import { type AgentStarter } from "../../../../core/agent/launch/mod.ts";

export const IDLE_AFTER_MS = 5 * 60_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Every idle check the door's watch made, and a way to wait for the next one. */
export class CheckLog {
  seen: IdleCheck[] = [];
  #cursor = 0;
  #waiter: (() => void) | undefined;

  record = (check: IdleCheck): void => {
    this.seen.push(check);
    this.#waiter?.();
  };

  /** Resolves with the next check after the last one taken. */
  async next(): Promise<IdleCheck> {
    while (this.#cursor >= this.seen.length) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#waiter = resolve;
      await promise;
    }
    return this.seen[this.#cursor++]!;
  }
}

/**
 * Runs the agent in this process: serves `handler` on the agent's socket at each start and shuts
 * it at each stop, counting both. What the door wakes and puts to sleep, as far as it can tell.
 */
export class InProcessAgent implements AgentStarter {
  starts = 0;
  stops = 0;
  #socket: string;
  #handler: EndpointHandler;
  #server: EndpointServer | undefined;

  constructor(socket: string, handler: EndpointHandler) {
    this.#socket = socket;
    this.#handler = handler;
  }

  get running(): boolean {
    return this.#server !== undefined;
  }

  async start(): Promise<void> {
    this.#server = await serveEndpoint({ path: this.#socket }, this.#handler);
    this.starts++;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    await server?.shutdown();
    this.stops++;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** An answer the agent starts and holds until the test lets it finish. */
export class StalledAnswer {
  #gate = Promise.withResolvers<void>();

  /** A chunked answer: "partial", then nothing until `finish()`, then "rest". */
  respond(): Response {
    const gate = this.#gate.promise;
    return new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode("partial"));
          await gate;
          controller.enqueue(encoder.encode("rest"));
          controller.close();
        },
      }),
    );
  }

  finish(): void {
    this.#gate.resolve();
  }
}

/** The mini harness (proof, ACP), with `GET /stall` answering a StalledAnswer. */
export function miniAgent(
  id: string,
  key: AgentKey,
  stalled: StalledAnswer,
): EndpointHandler {
  const mini = miniHarnessHandler({ agents: [{ id, name: "work", key: encodeKey(key) }] });
  return async (req, conn) =>
    new URL(req.url).pathname === "/stall" ? stalled.respond() : await mini(req, conn);
}

/** A door in this process over an agent in this process, on a fake clock, started awake unless told. */
export async function doorOver<S extends AgentStarter>(
  dir: string,
  clock: FakeClock,
  agent: (socket: string) => S,
  caller: Omit<AskCaller, "key"> & { key?: AgentKey },
  options: { awake?: boolean } = {},
): Promise<{ door: AgentDoor; agent: S; checks: CheckLog; caller: AskCaller }> {
  const socket = join(dir, "endpoint.sock");
  const starter = agent(socket);
  const checks = new CheckLog();
  const full: AskCaller = { ...caller, key: caller.key ?? newAgentKey() };
  const door = await openAgentDoor({
    agentId: full.agentId,
    port: 0,
    socket,
    starter,
    idleAfterMs: IDLE_AFTER_MS,
    askHarness: () => askHarnessBusy(socket, full),
    clock,
    onCheck: checks.record,
  });
  if (options.awake ?? true) await door.wake();
  return { door, agent: starter, checks, caller: full };
}

/** Resolves once the agent behind the door is in `state`. */
export async function untilState(door: AgentDoor, state: AgentDoor["state"]): Promise<void> {
  while (door.state !== state) await door.changed();
}

export async function writeText(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/** Reads until `text` has come whole (or the connection ends); returns everything read. */
export async function readUntil(conn: Deno.Conn, text: string): Promise<string> {
  let got = "";
  const buf = new Uint8Array(4096);
  while (!got.includes(text)) {
    const n = await conn.read(buf);
    if (n === null) return got;
    got += decoder.decode(buf.subarray(0, n));
  }
  return got;
}
