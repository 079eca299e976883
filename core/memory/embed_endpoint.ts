import { z } from "zod";
import { errorResponse, LinkError, logger, type Secret } from "../base/mod.ts";

const log = logger("memory");

/** The most texts one embedding request carries, and the longest text. */
const INPUTS_MAX = 64;
const INPUT_MAX_CHARS = 8_000;
/** The largest answer passed back from the provider. */
const ANSWER_MAX_BYTES = 32 * 1024 * 1024;

const EmbedBody = z.strictObject({
  model: z.string().min(1).max(200),
  input: z.array(z.string().max(INPUT_MAX_CHARS)).min(1).max(INPUTS_MAX),
});

/** Where an agent's embeddings go: its own provider, never a place a request names. */
export interface EmbeddingsProvider {
  /** The OpenAI-compatible base URL, such as `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  /** The provider's key, added here, outside every sandbox. */
  readonly key?: Secret;
}

/** The binding an endpoint serves now: its agent, owner, and the proof of its current key. */
export interface EmbedBinding {
  readonly agentId: string;
  readonly owner: string;
  /** The expected proof, made by the bridge from the agent's key; the endpoint holds no key (MEM-6). */
  readonly proof: Secret;
}

/** One call the endpoint took, as it judged it: the owner is the kernel's and the binding's, never a header's. */
export interface EmbedCall {
  readonly agent: string;
  readonly owner: string;
  readonly uid: number;
}

/** What answerEmbedding needs. */
export interface EmbedEndpointOptions {
  /** The binding served now, or undefined while none is (the agent stopped). */
  readonly binding: () => EmbedBinding | undefined;
  /** The caller's kernel identity (its uid), as the endpoint's socket admits it. */
  readonly peerUid: number;
  /** The uid an owner stands for on this machine: `local-<machine>-<uid>`'s, else the user running Link. */
  readonly ownerUid: (owner: string) => number | undefined;
  readonly provider: () => Promise<EmbeddingsProvider>;
  readonly onCall?: (call: EmbedCall) => void;
}

/**
 * The unix embedding endpoint's answer (MEM-4..7): `POST /v1/embeddings` with
 * `Authorization: Link-Binding <agent>:<proof>`. The proof must be the current binding's, for
 * this endpoint's agent; the owner is the binding's, and the caller's kernel uid must be that
 * owner's (MEM-5): any owner header is never read. It then sends the texts to the agent's own
 * provider, with the provider's key and without the proof, which never leaves this socket.
 */
export async function answerEmbedding(req: Request, options: EmbedEndpointOptions): Promise<Response> {
  try {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/embeddings") {
      throw new LinkError("UNSUPPORTED", `No route ${req.method} ${url.pathname}`);
    }
    const binding = options.binding();
    const claimed = /^Link-Binding ([a-z0-9][a-z0-9-]{0,63}):([0-9a-f]{64})$/.exec(
      req.headers.get("authorization") ?? "",
    );
    if (!binding || !claimed || claimed[1] !== binding.agentId || !binding.proof.matches(claimed[2]!)) {
      log.warn("Refused an embedding request: its binding proof is not this binding's", {
        agent: binding?.agentId,
        claimed: claimed?.[1],
      });
      throw new LinkError(
        "PROOF_FAILED",
        "Cannot embed: the request does not prove the agent's current binding",
        {
          hint:
            "Memory proves each agent with the proof of its current key; a restarted agent makes a new one",
        },
      );
    }
    if (options.ownerUid(binding.owner) !== options.peerUid) {
      throw new LinkError("PROOF_FAILED", "Cannot embed: the caller is not the binding's owner", {
        hint: "Only the owner's own memory service embeds for its agents",
      });
    }
    options.onCall?.({ agent: binding.agentId, owner: binding.owner, uid: options.peerUid });
    const body = EmbedBody.safeParse(await req.json().catch(() => undefined));
    if (!body.success) {
      throw new LinkError("INVALID", `Cannot embed: ${z.prettifyError(body.error)}`);
    }
    return await forward(await options.provider(), body.data);
  } catch (err) {
    return errorResponse(err);
  }
}

async function forward(provider: EmbeddingsProvider, body: z.infer<typeof EmbedBody>): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (provider.key) headers.authorization = `Bearer ${provider.key.reveal()}`;
  const res = await fetch(`${provider.baseUrl.replace(/\/+$/, "")}/embeddings`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  }).catch((err) => {
    throw new LinkError("PROVIDER_ERROR", "Cannot reach the embeddings provider", { cause: err });
  });
  const bytes = await res.arrayBuffer();
  if (bytes.byteLength > ANSWER_MAX_BYTES) {
    throw new LinkError("PROVIDER_ERROR", "The embeddings provider answered more than memory takes");
  }
  return new Response(bytes, {
    status: res.status,
    headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
  });
}
