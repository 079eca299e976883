import { type Clock, LinkError, Secret } from "../../base/mod.ts";
import { detectLocalModel } from "./detect_local_model.ts";
import {
  DEFAULT_PROVIDER,
  findProvider,
  isLoopbackUrl,
  LOCAL_PRICE,
  type LocalServer,
  type Provider,
  providerAt,
  PROVIDERS,
  trimSlashes,
} from "./providers.ts";
import type { ModelPrice } from "./usage.ts";

/** What decides an agent's model. */
export interface ResolveModelOptions {
  /** `--model`: `provider/model`, `local/model`, an OpenRouter name such as `anthropic/claude-sonnet-4`, or a bare name. */
  model?: string;
  /** `--model-url`: an OpenAI-compatible base URL, which wins over everything. */
  modelUrl?: string;
  /** Where key variables are read (Deno.env, a command's io.env, or a Map in tests). */
  env: { get(name: string): string | undefined };
  /** The local servers to probe; LOCAL_SERVERS unless told. */
  candidates?: readonly LocalServer[];
  /** Each local probe's deadline (500 ms unless told). */
  probeTimeoutMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

/** Why a model was chosen, for status and logs. */
export type ModelChoice = "model-url" | "model" | "local" | "key" | "default";

/** The model an agent calls, and where. */
export interface ResolvedModel {
  /** A PROVIDERS name, "local" for a server on the loopback, or "custom" for another URL. */
  provider: string;
  baseUrl: string;
  model: string;
  /** The variable the key comes from, for hosted providers. */
  keyVar?: string;
  /** The key, when its variable is set. Never checked here: a refused key shows at the first message (MDL-2). */
  key?: Secret;
  /** Undefined when Link does not know this model's price. */
  price: ModelPrice | undefined;
  chosenBy: ModelChoice;
}

/**
 * Picks the model: an explicit --model-url; else what --model names; else a local server that
 * answers; else the first provider whose key variable is set; else the default provider. Only
 * loopback servers are probed: nothing here calls a hosted provider (MDL-2).
 */
export async function resolveModel(options: ResolveModelOptions): Promise<ResolvedModel> {
  const named = options.model?.trim() || undefined;
  if (options.modelUrl) return await atUrl(options.modelUrl, named, options);
  if (named?.startsWith("local/")) {
    const local = await findLocal(options);
    if (local) return { ...local, model: named.slice("local/".length), chosenBy: "model" };
    // No local server here (a box without a GPU, MDL-3): a hosted provider's default stands in.
    return fallback(options.env);
  }
  if (named) return fromName(named, options.env);
  const local = await findLocal(options);
  if (local) return { ...local, chosenBy: "local" };
  return fallback(options.env);
}

/** The first provider whose key is set, else the default provider: each with its default model. */
function fallback(env: ResolveModelOptions["env"]): ResolvedModel {
  const keyed = keyedProvider(env);
  return keyed ? hosted(keyed, undefined, env, "key") : hosted(DEFAULT_PROVIDER, undefined, env, "default");
}

function fromName(name: string, env: ResolveModelOptions["env"]): ResolvedModel {
  const slash = name.indexOf("/");
  if (slash > 0) {
    const prefixed = findProvider(name.slice(0, slash));
    const openrouter = findProvider("openrouter")!;
    // "openai/gpt-4o" is OpenAI's own unless only OpenRouter has a key, which knows it by that name.
    if (prefixed && prefixed !== openrouter && (keyOf(prefixed, env) || !keyOf(openrouter, env))) {
      return hosted(prefixed, name.slice(slash + 1), env, "model");
    }
    // "openrouter/anthropic/claude-sonnet-4" names OpenRouter's "anthropic/claude-sonnet-4";
    // "openrouter/auto" is itself an OpenRouter name, kept whole.
    const rest = name.slice(slash + 1);
    if (prefixed === openrouter) return hosted(openrouter, rest.includes("/") ? rest : name, env, "model");
    return hosted(openrouter, name, env, "model");
  }
  const serving = PROVIDERS.find((p) => p.serves?.test(name));
  return hosted(serving ?? keyedProvider(env) ?? DEFAULT_PROVIDER, name, env, "model");
}

async function atUrl(
  url: string,
  model: string | undefined,
  options: ResolveModelOptions,
): Promise<ResolvedModel> {
  try {
    new URL(url);
  } catch {
    throw new LinkError("CONFIG_INVALID", `Cannot use the model URL "${url}": it is not a URL`, {
      hint: "Give an OpenAI-compatible base URL, such as http://127.0.0.1:11434/v1",
    });
  }
  const baseUrl = trimSlashes(url);
  const known = providerAt(baseUrl);
  if (known) return { ...hosted(known, model, options.env, "model-url"), baseUrl };
  const loopback = isLoopbackUrl(baseUrl);
  const picked = model ??
    (loopback
      ? (await findLocal({ ...options, candidates: [{ name: "local", baseUrl }] }))?.model
      : undefined);
  if (!picked) {
    throw new LinkError(
      "CONFIG_INVALID",
      `Cannot pick a model at "${baseUrl}": none is named and none is listed there`,
      {
        hint: "Name the model with --model",
      },
    );
  }
  return {
    provider: loopback ? "local" : "custom",
    baseUrl,
    model: picked,
    price: loopback ? LOCAL_PRICE : undefined,
    chosenBy: "model-url",
  };
}

async function findLocal(options: ResolveModelOptions): Promise<Omit<ResolvedModel, "chosenBy"> | undefined> {
  const found = await detectLocalModel({
    candidates: options.candidates,
    timeoutMs: options.probeTimeoutMs,
    clock: options.clock,
    signal: options.signal,
  });
  if (!found) return undefined;
  return {
    provider: "local",
    baseUrl: trimSlashes(found.server.baseUrl),
    model: found.models[0]!,
    price: LOCAL_PRICE,
  };
}

function hosted(
  provider: Provider,
  model: string | undefined,
  env: ResolveModelOptions["env"],
  chosenBy: ModelChoice,
): ResolvedModel {
  const chosen = model ?? provider.defaultModel;
  const resolved: ResolvedModel = {
    provider: provider.name,
    baseUrl: provider.baseUrl,
    model: chosen,
    keyVar: provider.keyVar,
    price: chosen === provider.defaultModel ? provider.price : undefined,
    chosenBy,
  };
  const key = keyOf(provider, env);
  if (key) resolved.key = new Secret(key);
  return resolved;
}

function keyedProvider(env: ResolveModelOptions["env"]): Provider | undefined {
  return PROVIDERS.find((p) => keyOf(p, env));
}

function keyOf(provider: Provider, env: ResolveModelOptions["env"]): string | undefined {
  return env.get(provider.keyVar)?.trim() || undefined;
}
