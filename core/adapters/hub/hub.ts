import { z } from "zod";
import { type AgentKey, errorResponse, isLinkError, LinkError, logger, toLinkError } from "../../base/mod.ts";
import { EndpointGuard, type EndpointHandler, PROOF_PATH } from "../../../connections/mod.ts";
import { AcpChild, type AcpCommand, START_TIMEOUT_MS } from "./acp_child.ts";
import { HubSessions } from "./hub_sessions.ts";

const log = logger("hub");

/** The route the door asks whether the agent may sleep (PRC-10), as Link Harness answers it. */
const BUSY_PATH = "/_link/busy";

/** How long a prompt may go with nothing said before its child is taken for hung. */
export const QUIET_TIMEOUT_MS = 600_000;

const AcpRequest = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.number(), z.string()]).optional(),
  method: z.string(),
  params: z.looseObject({}).default({}),
});

/** The agent the hub answers for, and how it runs the ACP program. */
export interface HubOptions {
  readonly agent: { readonly id: string; readonly name: string; readonly key: AgentKey };
  readonly command: AcpCommand;
  /** Where the thread-to-session map is kept; in memory alone when absent. */
  readonly sessionsFile?: string;
  readonly startTimeoutMs?: number;
  readonly quietTimeoutMs?: number;
}

/**
 * The hub (ARCHITECTURE.md section 6): serves a stdio ACP agent as the agent's endpoint, exactly
 * as Link Harness and the mini harness answer it: the proof (BRG-1), `POST /acp` proven on the
 * connection its challenge was given on (BRG-2), a request for another agent refused before the
 * program sees it (ADP-4), one ACP session per Link thread (`_meta link.local/thread`), and
 * `session/prompt`'s updates streamed back as `session/update` lines with the caller's session ID.
 * The program starts at the first message; one that dies, hangs or prints garbage fails the
 * message under way with an error its caller reads and a line in the log, and is started again at
 * the next message: the hub never dies with it. A second message to a thread that is answering is
 * refused AGENT_BUSY (the program answers one prompt per session).
 */
export class Hub implements AsyncDisposable {
  #options: HubOptions;
  #guard: EndpointGuard;
  #sessions: Promise<HubSessions>;
  #child: Promise<AcpChild> | undefined;
  #busy = new Set<string>();

  constructor(options: HubOptions) {
    this.#options = options;
    this.#guard = new EndpointGuard({
      keyFor: (id) => (id === options.agent.id ? options.agent.key : undefined),
    });
    this.#sessions = HubSessions.open(options.sessionsFile);
  }

  /** The endpoint's handler. */
  get handler(): EndpointHandler {
    return (req, conn) => this.#handle(req, conn);
  }

  async #handle(req: Request, conn: Parameters<EndpointHandler>[1]): Promise<Response> {
    const url = new URL(req.url, "http://endpoint");
    if (req.method === "GET" && url.pathname === "/") return Response.json({ harness: "acp", ok: true });
    const named = req.headers.get("link-agent-id") ?? this.#options.agent.id;
    if (named !== this.#options.agent.id) {
      return errorResponse(new LinkError("REFUSED", "This endpoint does not answer for that agent"));
    }
    if (req.method === "GET" && url.pathname === PROOF_PATH) {
      return this.#guard.answerProof(withId(req, named), conn);
    }
    if (url.pathname !== "/acp" && url.pathname !== BUSY_PATH) {
      return new Response("Not found", { status: 404 });
    }
    const proved = this.#guard.verify(withId(req, named), conn);
    if (!proved.ok) {
      return errorResponse(
        new LinkError("PROOF_FAILED", `The caller did not prove the agent's key: ${proved.reason}`),
      );
    }
    const next = this.#guard.nextChallenge(proved.agentId, conn);
    // The door asks before it lets the agent sleep (PRC-10): a prompt running holds it awake.
    if (req.method === "GET" && url.pathname === BUSY_PATH) {
      return Response.json({ turns: this.#busy.size, locks: 0 }, { headers: next });
    }
    if (req.method !== "POST" || url.pathname !== "/acp") {
      return new Response("Not found", { status: 404, headers: next });
    }
    const rpc = AcpRequest.safeParse(await req.json().catch(() => undefined));
    if (!rpc.success) return errorResponse(new LinkError("INVALID", "Not an ACP request"), { headers: next });
    const { id, method, params } = rpc.data;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const thread = String(meta["link.local/thread"] ?? params.sessionId ?? "link:main");
    try {
      if (method === "session/new") {
        // Starting the program can take seconds: the caller's next challenge holds until it answers.
        const release = this.#guard.hold(next["Link-Challenge"]!);
        try {
          await this.#sessionFor(thread);
        } finally {
          release();
        }
        return ndjson([{ jsonrpc: "2.0", id: id ?? null, result: { sessionId: thread } }], next);
      }
      if (method === "session/cancel") {
        const live = (await this.#sessions).live(thread);
        const child = this.#child && (await this.#child.catch(() => undefined));
        if (live && child?.alive) child.cancel(live);
        return id === undefined
          ? new Response(null, { headers: next })
          : ndjson([{ jsonrpc: "2.0", id, result: {} }], next);
      }
      if (method !== "session/prompt") {
        return ndjson([{
          jsonrpc: "2.0",
          id: id ?? null,
          error: { code: -32601, message: `Method "${method}" is not answered` },
        }], next);
      }
    } catch (err) {
      return errorResponse(toLinkError(err), { headers: next });
    }
    const prompt = (params.prompt as { type?: string; text?: string }[] | undefined) ?? [];
    const text = prompt.map((p) => (p.type === "text" ? p.text ?? "" : "")).join("");
    if (!text.trim()) {
      return errorResponse(new LinkError("INVALID", "the message has no text"), { headers: next });
    }
    if (this.#busy.has(thread)) {
      return errorResponse(
        new LinkError("AGENT_BUSY", "the agent is answering another message in this conversation", {
          hint: "Send the message again once the answer comes",
        }),
        { headers: next },
      );
    }
    const caller = String(params.sessionId ?? thread);
    return this.#prompt(thread, caller, text, {
      id: id ?? null,
      next,
      release: this.#guard.hold(next["Link-Challenge"]!),
    });
  }

  /** A prompt's answer, streamed: each update as it comes, then the result or the error. */
  #prompt(
    thread: string,
    caller: string,
    text: string,
    options: { id: number | string | null; next: Record<string, string>; release: () => void },
  ): Response {
    this.#busy.add(thread);
    const encoder = new TextEncoder();
    let open = true;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const send = (message: unknown) => {
      if (!open) return;
      try {
        controller.enqueue(encoder.encode(`${JSON.stringify(message)}\n`));
      } catch {
        open = false;
      }
    };
    let cancel = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => {
        open = false;
        cancel();
      },
    });
    const run = async () => {
      try {
        const { child, sessionId } = await this.#sessionFor(thread);
        cancel = () => child.cancel(sessionId);
        const stopReason = await child.prompt(sessionId, text, {
          quietMs: this.#options.quietTimeoutMs ?? QUIET_TIMEOUT_MS,
          onUpdate: (update) =>
            send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: caller, update } }),
        });
        log.info("Answered a message", { agent: this.#options.agent.id, thread, stopReason });
        send({ jsonrpc: "2.0", id: options.id, result: { stopReason } });
      } catch (err) {
        const error = toLinkError(err);
        if (!isLinkError(err)) log.error("Cannot answer a message", { thread, error: err });
        send({
          jsonrpc: "2.0",
          id: options.id,
          error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
        });
      } finally {
        this.#busy.delete(thread);
        options.release();
        if (open) {
          open = false;
          try {
            controller.close();
          } catch { /* the caller went */ }
        }
      }
    };
    void run();
    return new Response(body, { headers: { "Content-Type": "application/x-ndjson", ...options.next } });
  }

  /** The running child, started when there is none or the last one failed. */
  async #running(): Promise<AcpChild> {
    const current = this.#child && (await this.#child.catch(() => undefined));
    if (current?.alive) return current;
    (await this.#sessions).childEnded();
    const started = AcpChild.start(this.#options.command, { startTimeoutMs: this.#options.startTimeoutMs });
    this.#child = started;
    const child = await started.catch((err) => {
      if (this.#child === started) this.#child = undefined;
      log.error("Cannot start the harness's ACP program", { error: err });
      throw err;
    });
    log.info("Started the harness's ACP program", { program: child.name, loadSession: child.loadSession });
    void child.failed.then(async () => (await this.#sessions).childEnded());
    return child;
  }

  /** The thread's session in the running child: its own, loaded again after a restart, or new. */
  async #sessionFor(thread: string): Promise<{ child: AcpChild; sessionId: string }> {
    const child = await this.#running();
    const sessions = await this.#sessions;
    const live = sessions.live(thread);
    if (live) return { child, sessionId: live };
    const timeout = this.#options.startTimeoutMs ?? START_TIMEOUT_MS;
    const kept = sessions.kept(thread);
    const cwd = this.#options.command.cwd;
    const sessionId = kept && await child.loadOld(kept, cwd, timeout)
      ? kept
      : await child.newSession(cwd, timeout);
    await sessions.hold(thread, sessionId);
    return { child, sessionId };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const child = this.#child && (await this.#child.catch(() => undefined));
    await child?.[Symbol.asyncDispose]();
  }
}

function withId(req: Request, id: string): Request {
  if (req.headers.get("link-agent-id") === id) return req;
  const headers = new Headers(req.headers);
  headers.set("link-agent-id", id);
  return new Request(req.url, { method: req.method, headers });
}

function ndjson(lines: unknown[], headers: Record<string, string>): Response {
  return new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(""), {
    headers: { "Content-Type": "application/x-ndjson", ...headers },
  });
}
