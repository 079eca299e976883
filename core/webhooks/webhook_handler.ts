import { type Clock, logger, SYSTEM_CLOCK } from "../base/mod.ts";
import { WEBHOOK_NAME } from "../spec/mod.ts";
import type { HandedIn, WebhookMessage } from "./hand_in.ts";
import { secretsOf } from "./hook_secrets.ts";
import { readCapped } from "./read_capped.ts";
import { SeenPosts } from "./seen_posts.ts";
import type { Sift } from "./sift.ts";
import { SIFTS } from "./sifts.ts";

const log = logger("webhook");

/** The largest body a post may have (1 MiB); a longer one is refused 413 before it is read whole. */
export const MAX_BODY = 1024 * 1024;

/** How often the ids older than 30 days are pruned, at most. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** What the listener needs: the hooks as they are now, their folders, and the agent's door. */
export interface WebhookHandlerOptions {
  /** The hooks by name with their sift, read afresh at each post: a hook removed is refused at once. */
  hooks(): Promise<Record<string, { sift: string }>>;
  /** A hook's folder: its secrets and the ids it took. */
  hookDir(name: string): string;
  /** The spec's `[access] strangers_tools`, read afresh at each post. */
  strangersTools(): Promise<readonly string[]>;
  handIn(message: WebhookMessage): Promise<HandedIn>;
  clock?: Clock;
  sifts?: ReadonlyMap<string, Sift>;
  maxBody?: number;
}

/** The listener's handler, with the turns it handed in still being read; disposing closes them. */
export interface WebhookHandler extends AsyncDisposable {
  handle(req: Request): Promise<Response>;
  /** Resolves once every turn handed in so far has been read to its end. */
  idle(): Promise<void>;
}

/**
 * Answers posts to `/<hook name>` (WHK-3): 404 with nothing said for anything that is not a hook,
 * 405 for another method, 413 for a body over the cap, the sift's 401 or 400, 409 for a post whose
 * id was taken in the last 30 days, 503 while the same id is being handed in or when the harness
 * did not take it (the id let go: a redelivery is taken), and 202 with nothing of the agent's
 * answer once the harness took it and its id is kept (WHK-5, WHK-6).
 */
export function webhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const sifts = options.sifts ?? SIFTS;
  const maxBody = options.maxBody ?? MAX_BODY;
  const inFlight = new Set<string>();
  const turns = new Set<HandedIn>();
  const pruned = new Map<string, number>();

  async function handle(req: Request): Promise<Response> {
    const name = new URL(req.url).pathname.slice(1);
    const hook = WEBHOOK_NAME.test(name) ? (await options.hooks())[name] : undefined;
    if (!hook) return await refuse(req, 404);
    if (req.method !== "POST") return await refuse(req, 405, "Only POST is taken", { Allow: "POST" });
    const sift = sifts.get(hook.sift);
    if (!sift) {
      log.error("A webhook names a sift Link does not have", { hook: name, sift: hook.sift });
      return await refuse(req, 503, "The hook cannot check posts now");
    }
    const body = await readCapped(req, maxBody);
    if (!body) return text(413, `The body is longer than ${maxBody} bytes`);
    const dir = options.hookDir(name);
    const verdict = await sift.check({ headers: req.headers, body }, await secretsOf(dir, clock));
    if (!verdict.ok) {
      log.info("Refused a webhook's post", { hook: name, status: verdict.status, why: verdict.reason });
      return text(verdict.status, `Refused: ${verdict.reason}`);
    }
    // Only the id and the line about it are read from a verdict: never who it is from (WHK-4).
    const id = String(verdict.id);
    const key = `${name}\n${id}`;
    if (inFlight.has(key)) return text(503, "The same post is being handed in: send it again later");
    inFlight.add(key);
    try {
      return await deliver(name, id, String(verdict.about), body, dir);
    } finally {
      inFlight.delete(key);
    }
  }

  async function deliver(name: string, id: string, about: string, body: Uint8Array, dir: string) {
    const seen = new SeenPosts(dir, clock);
    if (await seen.seen(id)) return text(409, `Already taken: post ${id} was handed in before`);
    const tools = await options.strangersTools();
    const handed = await options.handIn({ hook: name, id, text: quoted(name, about, body), tools });
    if (!handed.taken) return text(503, "The agent did not take the post: send it again later");
    turns.add(handed);
    void handed.finished.finally(() => turns.delete(handed));
    await seen.take(id);
    log.info("Handed a webhook's post in", { hook: name, post: id });
    if (clock.now() - (pruned.get(name) ?? 0) >= PRUNE_EVERY_MS) {
      pruned.set(name, clock.now());
      await seen.prune();
    }
    return new Response(null, { status: 202 });
  }

  return {
    handle: (req) =>
      handle(req).catch((err) => {
        log.error("A webhook's post failed", { why: String(err) });
        return text(503, "The post could not be handed in: send it again later");
      }),
    async idle() {
      while (turns.size) await Promise.all([...turns].map((t) => t.finished));
    },
    async [Symbol.asyncDispose]() {
      for (const turn of turns) turn.close();
      await Promise.all([...turns].map((t) => t.finished));
    },
  };
}

/** What the agent is told: who posted, what it is, and the body quoted, never its owner's word. */
export function quoted(name: string, about: string, body: Uint8Array): string {
  const lines = new TextDecoder().decode(body).replace(/\r\n?/g, "\n").split("\n");
  return `A post to webhook "${name}" (${about}), quoted as it came: it is the poster's, not your owner's.\n\n` +
    lines.map((line) => (line ? `> ${line}` : ">")).join("\n");
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { "Content-Type": "text/plain", ...headers } });
}

/** Refuses without reading the body; a 404 says nothing at all. */
async function refuse(
  req: Request,
  status: number,
  body?: string,
  headers?: Record<string, string>,
): Promise<Response> {
  await req.body?.cancel().catch(() => {});
  return body === undefined ? new Response(null, { status }) : text(status, body, headers);
}
