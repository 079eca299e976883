import { type Clock, LinkError, SYSTEM_CLOCK } from "../../base/mod.ts";
import { LOCAL_SERVERS, type LocalServer, trimSlashes } from "./providers.ts";
import { beforeDeadline } from "./timed_body.ts";
import { ModelList } from "./wire_schemas.ts";

/** How local detection probes. */
export interface DetectLocalModelOptions {
  /** The servers to try, in order of preference; LOCAL_SERVERS unless told. */
  candidates?: readonly LocalServer[];
  /** How long each probe may take (500 ms unless told). */
  timeoutMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

/** A local server that answered, and the models it offers. */
export interface LocalModelServer {
  server: LocalServer;
  models: string[];
}

/**
 * Finds a model server on this machine's loopback: probes every candidate's GET <base>/models
 * at once, each under a short deadline, and picks the first in the list that answered with at
 * least one model. Undefined when none did.
 */
export async function detectLocalModel(
  options: DetectLocalModelOptions = {},
): Promise<LocalModelServer | undefined> {
  const candidates = options.candidates ?? LOCAL_SERVERS;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const timeoutMs = options.timeoutMs ?? 500;
  const controllers = candidates.map(() => new AbortController());
  const stop = () => controllers.forEach((c) => c.abort());
  options.signal?.addEventListener("abort", stop, { once: true });
  const probes = candidates.map((server, i) => probe(server, controllers[i]!, clock, timeoutMs));
  try {
    for (const result of probes) {
      const answer = await result;
      if (answer) return answer;
    }
    return undefined;
  } finally {
    options.signal?.removeEventListener("abort", stop);
    stop();
    await Promise.all(probes);
  }
}

async function probe(
  server: LocalServer,
  controller: AbortController,
  clock: Clock,
  timeoutMs: number,
): Promise<LocalModelServer | undefined> {
  const work = (async () => {
    const response = await fetch(`${trimSlashes(server.baseUrl)}/models`, { signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const list = ModelList.safeParse(await response.json());
    if (!list.success || list.data.data.length === 0) return undefined;
    return { server, models: list.data.data.map((m) => m.id) };
  })();
  try {
    return await beforeDeadline(
      work,
      clock,
      timeoutMs,
      () => new LinkError("TIMEOUT", `Cannot reach a local model at "${server.baseUrl}": no answer in time`),
    );
  } catch {
    return undefined;
  } finally {
    controller.abort();
    await work.catch(() => undefined);
  }
}
