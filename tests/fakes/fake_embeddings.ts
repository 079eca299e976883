/**
 * A fake OpenAI-compatible embeddings provider: `POST /v1/embeddings`, deterministic vectors where
 * similar meanings are near (a small fixed table of words to topics, other words hashed into a few
 * faint dimensions), with faults a test asks for (a 429, garbage). Served alone on 127.0.0.1 port
 * 0 (`serveFakeEmbeddings`), or by the fake model server at the same base URL (`embeddings` option).
 * It records every request, headers included.
 */

/** Words and the topic each stands for: texts sharing a topic are near, whatever their words. */
const TOPICS: Record<string, readonly string[]> = {
  pets: ["cat", "cats", "kitten", "kittens", "dog", "dogs", "puppy", "pet", "pets", "feline", "kitty"],
  food: ["pizza", "pasta", "sushi", "dinner", "lunch", "eat", "food", "restaurant", "meal", "sardines"],
  travel: ["flight", "train", "trip", "travel", "airport", "hotel", "holiday", "journey"],
  music: ["cello", "piano", "guitar", "music", "song", "concert"],
  work: ["invoice", "meeting", "deadline", "project", "report", "office"],
};
const NAMES = Object.keys(TOPICS);
const HASHED = 8;
export const FAKE_EMBEDDING_DIMS = NAMES.length + HASHED;

/** One request the fake got. */
export interface FakeEmbeddingsRequest {
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** The fake's handler and what it records. */
export interface FakeEmbeddings {
  readonly requests: FakeEmbeddingsRequest[];
  /** Answers the next `times` requests with `status` (429 unless told), OpenAI's error body. */
  failNext(status?: number, times?: number): void;
  /** Answers the next request with a 200 that holds no vectors. */
  garbageNext(): void;
  handle(req: Request): Promise<Response>;
}

/** The vector of a text: each topic word adds its topic, every other word a faint hashed part. */
export function fakeVector(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const topic = NAMES.findIndex((t) => TOPICS[t]!.includes(word));
    if (topic >= 0) v[topic]! += 1;
    else {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      v[NAMES.length + (h % HASHED)]! += 0.15;
    }
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** The fake embeddings handler. */
export function fakeEmbeddings(): FakeEmbeddings {
  const requests: FakeEmbeddingsRequest[] = [];
  const faults: ("garbage" | number)[] = [];
  return {
    requests,
    failNext(status = 429, times = 1) {
      for (let i = 0; i < times; i++) faults.push(status);
    },
    garbageNext() {
      faults.push("garbage");
    },
    async handle(req) {
      const body = await req.json().catch(() => undefined) as
        | { model?: unknown; input?: unknown }
        | undefined;
      requests.push({ headers: Object.fromEntries(req.headers), body });
      const fault = faults.shift();
      if (fault === "garbage") return new Response("<html>not vectors</html>", { status: 200 });
      if (fault !== undefined) {
        return Response.json(
          { error: { message: "Rate limit reached", type: "rate_limit_error" } },
          { status: fault, headers: { "retry-after": "1" } },
        );
      }
      const input = typeof body?.input === "string" ? [body.input] : body?.input;
      if (!Array.isArray(input) || !input.every((t) => typeof t === "string")) {
        return Response.json({ error: { message: "input must be strings" } }, { status: 400 });
      }
      return Response.json({
        object: "list",
        model: body?.model,
        data: input.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    },
  };
}

/** A fake embeddings provider on its own, its base URL ending in /v1. */
export function serveFakeEmbeddings(): Promise<FakeEmbeddings & AsyncDisposable & { url: string }> {
  const fake = fakeEmbeddings();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST" && new URL(req.url).pathname === "/v1/embeddings") return fake.handle(req);
    return Response.json({ error: { message: "Unknown path" } }, { status: 404 });
  });
  return Promise.resolve(Object.assign(fake, {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  }));
}
