import { logger, sha256Hex } from "../base/mod.ts";
import { ackKept, listKept } from "../../connections/link/mod.ts";
import {
  type AskCaller,
  type EndpointAddress,
  openEndpoint,
  type ProvenEndpoint,
} from "../../connections/mod.ts";

const log = logger("webhook");

/** One checked post, as it goes to the agent. */
export interface WebhookMessage {
  hook: string;
  /** The post's id, which makes the request id: a post sent again joins its first turn. */
  id: string;
  text: string;
  /** The conversation's tools: the spec's `[access] strangers_tools` (WHK-5). */
  tools: readonly string[];
}

/** How a hand-in went: whether the harness took the message, and its turn running on. */
export interface HandedIn {
  taken: boolean;
  /** Resolves once the answer (which goes to no one) is read to its end, or the endpoint closed. */
  finished: Promise<void>;
  /** Closes the endpoint, ending the wait for the answer; the turn itself runs on in the harness. */
  close(): void;
}

/**
 * Hands one post to the agent through its door, as any message from someone else comes (WHK-4):
 * proved with the agent's key, `Link-From: webhook:<name>` whatever the post said, in thread
 * `webhook:<name>`, its tools narrowed to `tools` (`_meta` link.local/tools). Taken once the
 * endpoint's 200 begins, or it steered the message into a running turn (202): the turn need not end.
 */
export async function handIn(
  door: { endpoint: EndpointAddress; caller: Omit<AskCaller, "from" | "hops"> },
  message: WebhookMessage,
): Promise<HandedIn> {
  const from = `webhook:${message.hook}`;
  // The harness takes a request id of 200 characters at most: a longer post id goes as its hash.
  const request = `${from}:${message.id}`.length <= 200
    ? `${from}:${message.id}`
    : `${from}:sha256:${sha256Hex(message.id)}`;
  const meta = {
    "link.local/thread": from,
    "link.local/request": request,
    "link.local/tools": [...message.tools],
  };
  let endpoint: ProvenEndpoint;
  try {
    endpoint = await openEndpoint(door.endpoint, { ...door.caller, from, hops: 0 });
    await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  } catch (err) {
    log.warn("The agent did not take a webhook's post", { hook: message.hook, why: String(err) });
    return notTaken();
  }
  const close = () => void endpoint[Symbol.asyncDispose]();
  const accepted = Promise.withResolvers<true>();
  const prompt = { sessionId: from, prompt: [{ type: "text", text: message.text }], _meta: meta };
  const turn = endpoint.call("session/prompt", prompt, () => {}, {
    from,
    onAccepted: () => accepted.resolve(true),
  });
  const taken = await Promise.race([accepted.promise, turn.then(() => true, () => false)]);
  const finished = turn.then(
    async (res) => {
      // The answers of a webhook's thread go to no one (WHK-5): those the harness kept because no
      // one read them (a bridge stopped mid-turn) are let go after each turn, never left to pile up.
      if (!res.steered) await ackKept(endpoint, (await listKept(endpoint, from)).map((k) => k.id));
    },
    (err) => {
      if (!taken) log.warn("The agent refused a webhook's post", { hook: message.hook, why: String(err) });
    },
  ).catch((err) =>
    log.debug("Cannot let a webhook's kept answers go", { hook: message.hook, why: String(err) })
  )
    .finally(close);
  return { taken, finished, close };
}

function notTaken(): HandedIn {
  return { taken: false, finished: Promise.resolve(), close() {} };
}
