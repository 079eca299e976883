import { dirnamePath, LinkError, logger } from "../base/mod.ts";
import {
  answerEmbedding,
  type EmbedBinding,
  type EmbedCall,
  type EmbeddingsProvider,
} from "./embed_endpoint.ts";

const log = logger("memory");

/** A served unix embedding endpoint of one agent. */
export interface EmbedEndpoint extends AsyncDisposable {
  readonly socket: string;
  /** The binding it serves from now on (a new start's proof); undefined: none, every proof refused. */
  bind(binding: EmbedBinding | undefined): void;
  close(): Promise<void>;
}

/** The uid an owner stands for on this machine: `local-<machine>-<uid>` names it; any other is the user running Link. */
export function ownerUid(owner: string): number | undefined {
  const local = /^local-.+-([0-9]+)$/.exec(owner);
  return local ? Number(local[1]) : Deno.uid() ?? undefined;
}

/**
 * Serves an agent's unix embedding endpoint (MEM-4, MEM-5) at `path`, in a folder only its user may
 * enter (0700, checked here): Deno gives no SO_PEERCRED, so the kernel's own check of who may
 * connect is what names the caller, and every caller is this user (or root). It is never served
 * on TCP: the proof travels on this socket alone.
 */
export async function serveEmbedEndpoint(options: {
  readonly path: string;
  readonly provider: () => Promise<EmbeddingsProvider>;
  readonly onCall?: (call: EmbedCall) => void;
  readonly signal?: AbortSignal;
}): Promise<EmbedEndpoint> {
  const folder = dirnamePath(options.path);
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  await Deno.chmod(folder, 0o700);
  const info = await Deno.lstat(folder);
  if (!info.isDirectory || (info.uid !== null && info.uid !== Deno.uid())) {
    throw new LinkError(
      "REFUSED",
      `Cannot serve memory's embedding endpoint: "${folder}" is not this user's own folder`,
    );
  }
  await Deno.remove(options.path).catch(() => {});
  let binding: EmbedBinding | undefined;
  const peerUid = Deno.uid() ?? 0;
  const stop = new AbortController();
  options.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path: options.path, transport: "unix", signal: stop.signal, onListen: () => listening.resolve() },
    (req) =>
      answerEmbedding(req, {
        binding: () => binding,
        peerUid,
        ownerUid,
        provider: options.provider,
        onCall: options.onCall,
      }),
  );
  await listening.promise;
  await Deno.chmod(options.path, 0o600);
  log.debug("Embedding endpoint open", { socket: options.path });
  const close = async () => {
    binding = undefined;
    stop.abort();
    await server.finished;
    await Deno.remove(options.path).catch(() => {});
  };
  return {
    socket: options.path,
    bind(next) {
      binding = next;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
