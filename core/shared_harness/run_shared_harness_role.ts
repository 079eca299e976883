import { parseArgs } from "node:util";
import { announceReady, errorResponse, LinkError, logger, parseDuration } from "../base/mod.ts";
import { HostJoin } from "../harness/serve/host_protocol.ts";
import { agentContext } from "../agent/mod.ts";
import { LINGER_MS } from "../base/mod.ts";
import { SharedHarness } from "./shared_harness.ts";
import { sharedHarnessSocketPath } from "../agent/sharing/mod.ts";

const log = logger("harness");

/**
 * `lnk harness shared --owner <owner>`: one owner's shared harness, a service of its own (PRC-16),
 * answering on `~/.lnk/run/harness-<owner>.sock`: `GET /state`, `POST /join` (an agent's bridge
 * hands its agent; the answer's first line says joined or why not, and the answer stays open while
 * the agent is served: its end, or the bridge's, lets the agent go), `POST /leave`. It ends 20 s
 * after its last agent (PRC-15); `LNK_HARNESS_LINGER` (a duration) shortens that, for tests only.
 */
export async function runSharedHarnessRole(args: string[], signal: AbortSignal): Promise<number> {
  const { values } = parseArgs({ args, options: { owner: { type: "string" } }, strict: true });
  const owner = values.owner;
  if (!owner) {
    throw new LinkError("USAGE", "Cannot start the shared harness: it needs --owner <owner>", {
      hint: "It is started by `lnk agent start` when machine.toml says `shared_harness = true`",
    });
  }
  const ctx = agentContext(Deno.env);
  const linger = Deno.env.get("LNK_HARNESS_LINGER");
  await using harness = new SharedHarness(ctx, owner, {
    lingerMs: linger ? parseDuration(linger) : LINGER_MS,
  });
  const socket = sharedHarnessSocketPath(ctx.paths, owner);
  await Deno.mkdir(ctx.paths.run, { recursive: true, mode: 0o700 });
  await Deno.remove(socket).catch(() => {});
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path: socket, transport: "unix", onListen: () => listening.resolve() },
    (req) => handle(harness, req),
  );
  await listening.promise;
  await Deno.chmod(socket, 0o600);
  announceReady({ socket, pid: Deno.pid });
  log.info("Shared harness ready", { owner, pid: Deno.pid });
  await Promise.race([
    harness.ended,
    new Promise((r) => signal.addEventListener("abort", r, { once: true })),
  ]);
  await harness[Symbol.asyncDispose]();
  await server.shutdown();
  await Deno.remove(socket).catch(() => {});
  log.info("Shared harness stopped", { owner });
  return 0;
}

async function handle(harness: SharedHarness, req: Request): Promise<Response> {
  const route = new URL(req.url).pathname;
  try {
    if (req.method === "GET" && route === "/state") return Response.json(harness.state());
    if (req.method === "POST" && route === "/leave") {
      const { agent } = await req.json() as { agent?: unknown };
      if (typeof agent !== "string") throw new LinkError("USAGE", "Cannot let an agent go: no agent named");
      await harness.leave(agent);
      return Response.json({ left: agent });
    }
    if (req.method === "POST" && route === "/join") return await join(harness, req);
    return errorResponse(new LinkError("UNSUPPORTED", `No route ${req.method} ${route}`));
  } catch (err) {
    return errorResponse(err);
  }
}

/** Joins the agent, then keeps the answer open until the agent leaves or its sandbox ends. */
async function join(harness: SharedHarness, req: Request): Promise<Response> {
  const parsed = HostJoin.safeParse(await req.json());
  if (!parsed.success) {
    throw new LinkError("USAGE", `Cannot join the shared harness: ${parsed.error.message}`);
  }
  const id = parsed.data.agent.id;
  const { pid, status, join } = await harness.join(parsed.data);
  let left = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`${JSON.stringify({ joined: id, pid })}\n`));
      status.then(() => {
        try {
          controller.close();
        } catch { /* already cancelled */ }
      });
    },
    cancel() {
      // The bridge went (stopped or died): the agent leaves.
      if (!left) void harness.leave(id, join);
      left = true;
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}
