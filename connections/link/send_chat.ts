import { LinkError } from "../../core/base/mod.ts";
import {
  type AskCaller,
  type EndpointAddress,
  openEndpoint,
  type ProvenEndpoint,
} from "../endpoint/ask_for.ts";
import { takeHeld } from "./held_answers.ts";
import { ackKept, listKept } from "./kept_client.ts";

/** The meta key marking an answer's sentence that says the agent could not answer. */
const ERROR_META = "link.local/error";
/** The result's meta key listing the answers kept until this caller acknowledges them. */
const KEPT_META = "link.local/kept";

/** How long a chat whose message joined a running turn waits for that turn's answer. */
export const STEERED_WAIT_MS = 15 * 60_000;

/** One message sent on a `link` thread. */
export interface SendChatOptions {
  address: EndpointAddress;
  caller: AskCaller;
  /** The connection's folder of held answers (`heldDir`). */
  heldDir: string;
  thread: string;
  text: string;
  /** Ctrl-C: stops only the wait (LOC-6). */
  signal: AbortSignal;
  /** Each piece of the answer as it is written. */
  onText(text: string): void;
  /** An answer kept from before: shown before the message is sent, or after its answer when it was kept meanwhile (LOC-5). */
  onEarlier(text: string): void;
  /** How long a message that joined a running turn waits for its answer. */
  steeredWaitMs?: number;
}

/** How a chat message ended. */
export type ChatOutcome =
  | { kind: "answered" }
  /** It joined a turn whose answer went to another chat on the thread. */
  | { kind: "answered-elsewhere" }
  /** Ctrl-C: the turn runs on; its answer comes with the next message. */
  | { kind: "stopped" }
  | { kind: "failed"; message: string; hint?: string };

/**
 * Sends one message on a `link` thread exactly as a connection's bridge sends one (LOC-2): to the
 * agent's endpoint after it proves the agent's key, each request proved back; the key never
 * travels. Answers held or kept from before are shown first, once (LOC-5); the answer streams as
 * it is written; a message that joined a running turn takes the first answer kept after it was
 * sent (LOC-6). Ctrl-C stops only the wait.
 */
export async function sendChat(options: SendChatOptions): Promise<ChatOutcome> {
  for (const held of await takeHeld(options.heldDir, options.thread)) options.onEarlier(held.text);
  if (options.signal.aborted) return { kind: "stopped" };
  const endpoint = await reach(options);
  const onAbort = () => void endpoint[Symbol.asyncDispose]();
  options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const before = await listKept(endpoint, options.thread);
    for (const kept of before) options.onEarlier(kept.answer);
    await ackKept(endpoint, before.map((k) => k.id));
    const { outcome, kept } = await ask(endpoint, options);
    // The answer is kept until it is read whole: only now may the harness let it go (LOC-5).
    await ackKept(endpoint, kept);
    if (outcome.kind === "answered") {
      // A turn that ended between that look and this message's own turn kept its answer
      // meanwhile: it is shown now, after this answer, rather than left for the next chat.
      const meanwhile = await listKept(endpoint, options.thread);
      for (const kept of meanwhile) options.onEarlier(kept.answer);
      await ackKept(endpoint, meanwhile.map((k) => k.id));
    }
    return outcome;
  } catch (err) {
    if (options.signal.aborted) return { kind: "stopped" };
    throw err;
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    await endpoint[Symbol.asyncDispose]();
  }
}

/** Sends the message; `kept` names the answers the harness keeps until this caller has them. */
async function ask(
  endpoint: ProvenEndpoint,
  options: SendChatOptions,
): Promise<{ outcome: ChatOutcome; kept: string[] }> {
  const meta = { "link.local/thread": options.thread };
  // Its own name, so a message that joins a running turn knows its answer among those kept.
  const request = `chat-${crypto.randomUUID()}`;
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  const res = await endpoint.call(
    "session/prompt",
    {
      sessionId: options.thread,
      prompt: [{ type: "text", text: options.text }],
      _meta: { ...meta, "link.local/request": request, "link.local/receipt": true },
    },
    (update) => {
      if (update.sessionUpdate !== "agent_message_chunk") return;
      const content = update.content as { text?: string } | undefined;
      const isError = (update._meta as Record<string, unknown> | undefined)?.[ERROR_META] === true;
      if (content?.text && !isError) options.onText(content.text);
    },
  );
  if (res.steered) return { outcome: await steered(endpoint, options, request), kept: [] };
  const resultMeta = res.result?._meta as Record<string, unknown> | undefined;
  const kept = Array.isArray(resultMeta?.[KEPT_META])
    ? (resultMeta[KEPT_META] as unknown[]).filter((id): id is string => typeof id === "string")
    : [];
  const error = resultMeta?.[ERROR_META] as { message?: string; hint?: string } | undefined;
  if (error) {
    const message = error.message ?? "Your agent could not answer";
    return { outcome: { kind: "failed", message, hint: error.hint }, kept };
  }
  return { outcome: { kind: "answered" }, kept };
}

/**
 * The message joined a running turn (202): its answer is the one kept with its request among its
 * requests. Others kept meanwhile on the thread (a crashed turn finished before it took this
 * message in) are passed over here and shown after it, as answers from before; when the thread
 * has nothing left to answer and none holds it, its answer went to another chat.
 */
async function steered(
  endpoint: ProvenEndpoint,
  options: SendChatOptions,
  request: string,
): Promise<ChatOutcome> {
  const waitMs = options.steeredWaitMs ?? STEERED_WAIT_MS;
  const known: string[] = [];
  // Each look waits for an answer kept after the last; each passed over is one fewer to wait for.
  for (;;) {
    const found = await listKept(endpoint, options.thread, { waitMs, known });
    const kept = found.find((k) => k.requests.includes(request));
    if (kept) {
      if (kept.error) {
        return { kind: "failed", message: kept.answer, hint: "Run `lnk agent logs` to see why" };
      }
      options.onText(kept.answer);
      await ackKept(endpoint, [kept.id]);
      return { kind: "answered" };
    }
    const fresh = found.filter((k) => !known.includes(k.id));
    if (fresh.length === 0) return { kind: "answered-elsewhere" };
    known.push(...fresh.map((k) => k.id));
  }
}

async function reach(options: SendChatOptions): Promise<ProvenEndpoint> {
  try {
    return await openEndpoint(options.address, options.caller);
  } catch (err) {
    if (err instanceof Deno.errors.ConnectionRefused || err instanceof Deno.errors.NotFound) {
      throw new LinkError(
        "AGENT_NOT_RUNNING",
        `Cannot reach agent "${options.caller.agentName}": nothing answers`,
        {
          hint: "Start it with `lnk agent start`, or see `lnk agent status`",
          cause: err,
        },
      );
    }
    throw err;
  }
}
