import type { ModelPrice } from "./usage.ts";

/** A hosted provider of an OpenAI-compatible chat completions API. */
export interface Provider {
  /** The name used in `--model <provider>/<model>`. */
  name: string;
  /** The API's base URL, ending before `/chat/completions`. */
  baseUrl: string;
  /** The environment variable holding the key. */
  keyVar: string;
  /** The model an agent gets when `--model` names none: never `openrouter/auto` (MDL-1). */
  defaultModel: string;
  /** The default model's price. */
  price: ModelPrice;
  /** Bare model names (no `provider/`) this provider serves. */
  serves?: RegExp;
}

/** An OpenAI-compatible model server on this machine's loopback. */
export interface LocalServer {
  name: string;
  /** Its base URL, ending in /v1. */
  baseUrl: string;
}

/**
 * The one price of every default model: $0.10 a million tokens in and $0.50 out, so switching
 * provider never multiplies the bill without the person saying so (MDL-1).
 */
export const DEFAULT_PRICE: ModelPrice = Object.freeze({ inPerMillion: 0.1, outPerMillion: 0.5 });

/** What a model on this machine costs: nothing a provider bills. */
export const LOCAL_PRICE: ModelPrice = Object.freeze({ inPerMillion: 0, outPerMillion: 0 });

/**
 * The hosted providers, the default first. Each default is a cheap model listed at MDL-1's one
 * price; `--model` names a larger one. OpenRouter's `openrouter/auto` is never a default: it
 * picks a model per prompt and bills that model's price, often a large one.
 */
export const PROVIDERS: readonly Provider[] = Object.freeze([
  {
    name: "openrouter",
    baseUrl: "https://openrouter.ai/api/v1",
    keyVar: "OPENROUTER_API_KEY",
    defaultModel: "deepseek/deepseek-chat",
    price: DEFAULT_PRICE,
  },
  {
    name: "openai",
    baseUrl: "https://api.openai.com/v1",
    keyVar: "OPENAI_API_KEY",
    defaultModel: "gpt-4.1-nano",
    price: DEFAULT_PRICE,
    serves: /^(gpt-|o\d|chatgpt-)/,
  },
  {
    name: "deepseek",
    baseUrl: "https://api.deepseek.com/v1",
    keyVar: "DEEPSEEK_API_KEY",
    defaultModel: "deepseek-chat",
    price: DEFAULT_PRICE,
    serves: /^deepseek-/,
  },
]);

/** The provider used when nothing else decides: the first of PROVIDERS. */
export const DEFAULT_PROVIDER: Provider = PROVIDERS[0]!;

/** The loopback servers local detection tries, in order (Ollama, llama.cpp, LM Studio). */
export const LOCAL_SERVERS: readonly LocalServer[] = Object.freeze([
  { name: "ollama", baseUrl: "http://127.0.0.1:11434/v1" },
  { name: "llama.cpp", baseUrl: "http://127.0.0.1:8080/v1" },
  { name: "lm-studio", baseUrl: "http://127.0.0.1:1234/v1" },
]);

/** The provider with this name, if Link knows it. */
export function findProvider(name: string): Provider | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/** The provider whose base URL this is (trailing slashes aside), if Link knows it. */
export function providerAt(baseUrl: string): Provider | undefined {
  const wanted = trimSlashes(baseUrl);
  return PROVIDERS.find((p) => trimSlashes(p.baseUrl) === wanted);
}

/** Whether a URL points at this machine's loopback (MDL-4 keeps such settings to their machine). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A base URL without trailing slashes. */
export function trimSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}
