import { errorResponse, LinkError, type LinkPaths, logger } from "../base/mod.ts";
import { socketAnswers } from "../agent/mod.ts";
import type { SharedBridge } from "./shared_bridge.ts";
import { sharedBridgeSocketPath, SyncRequest } from "../agent/sharing/mod.ts";

const log = logger("bridges");

/**
 * Serves the shared bridge's control socket (`~/.lnk/run/bridges.sock`, in a folder only its user
 * reaches): `GET /bridges` says what it carries, `POST /sync` has it read its list again and say
 * where one agent stands (how `lnk agent start` and `stop` wait for it), `GET /watch` is a request
 * it never answers, broken by its end. Calls wait until the bridge is open. Throws SERVICE_FAILED
 * when another shared bridge answers there.
 */
export async function serveBridgesControl(
  bridge: Promise<SharedBridge>,
  paths: LinkPaths,
): Promise<AsyncDisposable> {
  const path = sharedBridgeSocketPath(paths);
  if (await socketAnswers(path)) {
    throw new LinkError("SERVICE_FAILED", "Cannot start the shared bridge: another one runs already", {
      hint: "Run `lnk agent status` to see the agents it carries",
    });
  }
  await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
  await Deno.remove(path).catch(() => {});
  const watchers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path, transport: "unix", onListen: () => listening.resolve() },
    (req) => handle(req, bridge, watchers),
  );
  await listening.promise;
  const ours = (await Deno.stat(path)).ino;
  return {
    async [Symbol.asyncDispose]() {
      for (const watcher of watchers) watcher.close();
      watchers.clear();
      await server.shutdown();
      // Only our own socket: a bridge started since may listen at the same path.
      if ((await Deno.stat(path).catch(() => undefined))?.ino === ours) {
        await Deno.remove(path).catch(() => {});
      }
    },
  };
}

async function handle(
  req: Request,
  opening: Promise<SharedBridge>,
  watchers: Set<ReadableStreamDefaultController<Uint8Array>>,
): Promise<Response> {
  const route = `${req.method} ${new URL(req.url).pathname}`;
  try {
    const bridge = await opening;
    if (route === "GET /bridges") return Response.json(bridge.snapshot());
    if (route === "POST /sync") {
      const request = SyncRequest.safeParse(await req.json().catch(() => undefined));
      if (!request.success) return errorResponse(new LinkError("INVALID", "A sync takes {agent?, wake?}"));
      return Response.json(await bridge.sync(request.data));
    }
    if (route === "GET /watch") {
      let held: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void watchers.add(held = controller),
        cancel: () => void (held && watchers.delete(held)),
      });
      return new Response(body);
    }
    return errorResponse(new LinkError("UNSUPPORTED", `No route ${route}`));
  } catch (err) {
    log.error("Cannot answer on the control socket", { route, error: err });
    return errorResponse(err);
  }
}
