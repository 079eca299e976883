import { joinPath as join, type LinkPaths, logger, sha256Hex, SYSTEM_CLOCK } from "../../base/mod.ts";
import {
  bridgeFailure,
  type BridgeHosting,
  type BridgeServer,
  serveBridge,
} from "../../../link_bridge/mod.ts";
import {
  heldDir,
  holdAnswer,
  LINK_CONNECTION,
  SEND_ACTION,
  type SendAnswer,
  SendCall,
} from "../../../connections/link/mod.ts";
import { loadSettings, sendSocketPath } from "../../agent/mod.ts";
import { agentKeyFor, type ServedAgent } from "./served_agent.ts";

const log = logger("way-in");

/** How many sends the way in holds at once; one more is answered `busy` (BRG-11). */
export const WAY_IN_CAP = 8;

/** Options for serveWayIn. */
export interface ServeWayInOptions extends ServedAgent, BridgeHosting {
  /** The home whose keyring is checked at every call (BRG-14), and where the socket is by default. */
  paths: LinkPaths;
}

/**
 * Serves an agent's way in, `.net/<id>/send.sock` unless told: a proven `send` puts the agent's
 * message on a connection: held in the connection's folder, on `link` for the next chat on its
 * thread (LOC-5), on a connection the agent has for its carrier to send to the owner's own chat;
 * a connection it does not have is refused. Every call is
 * checked against the keyring as well as the key the bridge was handed, so a way in that outlives
 * its agent's stop takes nothing proved with the old key (BRG-14).
 */
export function serveWayIn(options: ServeWayInOptions): Promise<BridgeServer> {
  const { agent, paths } = options;
  const clock = options.clock ?? SYSTEM_CLOCK;
  return serveBridge({
    path: options.port === undefined ? (options.path ?? sendSocketPath(paths, agent.id)) : undefined,
    port: options.port,
    clock: options.clock,
    placesPerUser: options.placesPerUser,
    placesPerBridge: options.placesPerBridge,
    checkKeyring: paths,
    signal: options.signal,
    name: "send",
    cap: WAY_IN_CAP,
    keyFor: agentKeyFor(options, "send"),
    async handle(call, conn): Promise<SendAnswer> {
      if (call.action !== SEND_ACTION) {
        throw bridgeFailure("refused", `Cannot "${call.action}": the way in only sends`);
      }
      const send = await conn.body(SendCall);
      if (!send.thread.startsWith(`${send.connection}:`)) {
        const message = `Cannot send on thread "${send.thread}": it is not a thread of "${send.connection}"`;
        throw bridgeFailure("invalid", message);
      }
      if (
        send.connection !== LINK_CONNECTION &&
        !(send.connection in await connectionsOf(paths, agent.id))
      ) {
        throw bridgeFailure("refused", `Cannot send on "${send.connection}": it is not connected`);
      }
      // Held in the connection's folder: the next chat prints it (link), or its carrier sends it to
      // the owner's own chat, never to a chat the harness names (SCH-3, LOC-5).
      const dir = heldDir(paths, agent.id, send.connection);
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      const taken = send.id === undefined ? undefined : await takenSends(paths, agent.id, clock.now());
      if (taken && await taken.has(send.id!)) {
        log.info("A send taken before is not held again", { agent: agent.id, connection: send.connection });
        return { held: true };
      }
      await holdAnswer(dir, { thread: send.thread, text: send.text, at: clock.now() });
      await taken?.add(send.id!);
      log.info("Message held for its connection", {
        agent: agent.id,
        connection: send.connection,
        thread: send.thread,
      });
      return { held: true };
    },
  });
}

/** The agent's connections (`bots`), none when its settings cannot be read. */
async function connectionsOf(paths: LinkPaths, agentId: string): Promise<Record<string, unknown>> {
  return await loadSettings(paths, agentId).then((s) => s.bots, () => ({}));
}

/** How long the way in remembers a send's id: longer than any retry of the runner's (5 min apart). */
const TAKEN_KEEP_MS = 7 * 24 * 3600_000;

/** How often the taken sends older than TAKEN_KEEP_MS are looked for: not at every send. */
const TAKEN_PRUNE_EVERY_MS = 3600_000;

/** When each folder of taken sends was last pruned, in this process. */
const lastPruned = new Map<string, number>();

/**
 * The ids of the sends the way in took (one empty file each, named by the id's hash, in the agent's
 * state where no sandbox reaches), those older than a week let go as one is taken, once an hour.
 */
async function takenSends(paths: LinkPaths, agentId: string, now: number) {
  const dir = join(paths.agentState(agentId), "sent");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = (id: string) => sha256Hex(id).slice(0, 40);
  return {
    async has(id: string): Promise<boolean> {
      try {
        await Deno.lstat(join(dir, name(id)));
        return true;
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return false;
        throw err;
      }
    },
    async add(id: string): Promise<void> {
      await Deno.writeFile(join(dir, name(id)), new Uint8Array(), { mode: 0o600 });
      if (now - (lastPruned.get(dir) ?? -Infinity) < TAKEN_PRUNE_EVERY_MS) return;
      lastPruned.set(dir, now);
      for await (const entry of Deno.readDir(dir)) {
        const path = join(dir, entry.name);
        const info = await Deno.lstat(path).catch(() => undefined);
        if (info?.mtime && now - info.mtime.getTime() > TAKEN_KEEP_MS) {
          await Deno.remove(path).catch(() => {});
        }
      }
    },
  };
}
