import { z } from "zod";
import { type Clock, LinkError, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import type { Embedder } from "./embedder.ts";

/** How long one embedding request may take before the search goes on by words. */
export const EMBED_TIMEOUT_MS = 30_000;

/** The longest vector memory takes from a provider. */
const DIMS_MAX = 8_192;

/** An OpenAI-compatible `/v1/embeddings` answer, as much of it as memory reads. */
const EmbeddingsAnswer = z.looseObject({
  data: z.array(z.looseObject({
    index: z.number().int().min(0),
    embedding: z.array(z.number().finite()).min(1).max(DIMS_MAX),
  })),
});

/** Where and as what memory asks for one agent's embeddings. */
export interface BindingEmbedderOptions {
  /** The agent's unix embedding endpoint: never a TCP address (MEM-4). */
  readonly socket: string;
  readonly agentId: string;
  /** The agent's embedding binding proof, held redacted (MEM-6). */
  readonly proof: Secret;
  readonly model: string;
  readonly clock?: Clock;
}

/**
 * The embedder of one agent's binding (MEM-4): each request goes to the agent's unix embedding
 * endpoint only, as `Authorization: Link-Binding <agent>:<proof>`. Anything but a whole answer of
 * one finite vector per text, all of one length, is PROVIDER_ERROR (a 429, garbage, a cut answer).
 */
export function bindingEmbedder(options: BindingEmbedderOptions): Embedder {
  return {
    model: options.model,
    async embed(texts, signal) {
      const client = Deno.createHttpClient({ proxy: { transport: "unix", path: options.socket } });
      // A provider that never answers ends the request, never the search (it goes on by words).
      const deadline = new AbortController();
      const timer = (options.clock ?? SYSTEM_CLOCK).sleep(EMBED_TIMEOUT_MS, deadline.signal).then(
        () => deadline.abort(),
        () => {},
      );
      signal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
      try {
        const { res, text } = await answerOf(fetch("http://embeddings/v1/embeddings", {
          client,
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Link-Binding ${options.agentId}:${options.proof.reveal()}`,
          },
          body: JSON.stringify({ model: options.model, input: texts }),
          signal,
        }));
        if (!res.ok) {
          throw new LinkError("PROVIDER_ERROR", `The embeddings provider answered ${res.status}`, {
            hint: res.status === 429 ? "It is rate limited: search again later" : undefined,
          });
        }
        return vectorsOf(text, texts.length);
      } finally {
        client.close();
        if (!deadline.signal.aborted) deadline.abort();
        await timer;
      }
    },
  };
}

/** The whole answer, or PROVIDER_ERROR when it did not come (refused, cut, past its deadline). */
async function answerOf(asked: Promise<Response>): Promise<{ res: Response; text: string }> {
  try {
    const res = await asked;
    return { res, text: await res.text() };
  } catch (err) {
    throw new LinkError("PROVIDER_ERROR", "The agent's embedding endpoint did not answer", { cause: err });
  }
}

function vectorsOf(text: string, count: number): number[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const answer = EmbeddingsAnswer.safeParse(parsed);
  const garbage = new LinkError(
    "PROVIDER_ERROR",
    "The embeddings provider answered something other than vectors",
  );
  if (!answer.success || answer.data.data.length !== count) throw garbage;
  const vectors: number[][] = new Array(count);
  for (const item of answer.data.data) {
    if (item.index >= count || vectors[item.index]) throw garbage;
    vectors[item.index] = item.embedding;
  }
  const dims = vectors[0]?.length;
  if (vectors.some((v) => !v || v.length !== dims)) throw garbage;
  return vectors;
}
