import { sha256Hex } from "../../base/mod.ts";
import type { ProxyKey } from "../../../proxy/mod.ts";
import { findProvider, type LocalServer, resolveModel } from "../../harness/model/mod.ts";
import type { AgentSettings } from "../settings.ts";

/** What a harness holds instead of a hosted model's key when the proxy adds it (SBX-16). */
export const MODEL_KEY_PLACEHOLDER = "link-placeholder";

/**
 * The harnesses a test shows reaching their model through the proxy, so they hold a placeholder
 * by default (SBX-17): Link Harness, an ACP agent under the hub (acp: the hub hands it the proxy's
 * base URL, tests/core/harness_hub/acp_hosted_key_test.ts), OpenClaw, Hermes and DeepSeek Harness.
 * A harness from outside Link holds its own key.
 */
export const WIRED_BY_DEFAULT: readonly string[] = ["link", "acp", "openclaw", "hermes", "deepseek"];

/** Whether the proxy adds the agent's model key: its setting, else its harness's default. */
export function keyWired(agent: AgentSettings): { wired: boolean; by: "setting" | "default" } {
  const set = agent.secrets?.wire;
  if (set !== undefined) return { wired: set, by: "setting" };
  return { wired: WIRED_BY_DEFAULT.includes(agent.harness), by: "default" };
}

/** Where an agent's model key comes from and where it goes: the proxy's keys and the harness's variable. */
export interface ModelWiring {
  readonly wired: boolean;
  readonly by: "setting" | "default";
  /** The provider the agent's model is at: a hosted one's name, "local" or "custom". */
  readonly provider: string;
  /** The variable the key is read from and handed to the harness under, for a hosted provider. */
  readonly keyVar?: string;
  /** Whether that variable is set where the agent starts. */
  readonly keySet: boolean;
  /** The key's SHA-256, so a check can tell it inside without holding it. */
  readonly keySha256?: string;
  /** What the proxy adds (SBX-16): none unless wired, hosted and set. */
  readonly keys: readonly ProxyKey[];
  /** The variable the harness gets: the placeholder when wired, the key itself when it holds it. */
  readonly env: Readonly<Record<string, string>>;
}

/** What decides the model besides the agent: its environment and, in tests, the local servers probed. */
export interface ModelWiringOptions {
  readonly env: { get(name: string): string | undefined };
  /** The local model servers to probe; Link's list unless told (tests pass none). */
  readonly candidates?: readonly LocalServer[];
  readonly signal?: AbortSignal;
}

/**
 * How the agent's hosted model key travels (SBX-16, SBX-17). Wired: the harness's key variable
 * holds `link-placeholder`, so it sends `Authorization: Bearer link-placeholder`, and the proxy
 * puts the key in place of the placeholder in that header, for the provider's host and over TLS
 * only: a key never enters the sandbox. Held: the harness's key variable holds the key.
 */
export async function modelWiring(agent: AgentSettings, options: ModelWiringOptions): Promise<ModelWiring> {
  const { wired, by } = keyWired(agent);
  const model = await resolveModel({
    model: agent.model,
    modelUrl: agent.model_url,
    env: options.env,
    candidates: options.candidates,
    signal: options.signal,
  });
  const base = {
    wired,
    by,
    provider: model.provider,
    keyVar: model.keyVar,
    keySet: model.key !== undefined,
    keySha256: model.key && sha256Hex(model.key.reveal()),
  };
  const hosted = findProvider(model.provider);
  if (!hosted || !model.keyVar || !model.key) return { ...base, keys: [], env: {} };
  if (!wired) return { ...base, keys: [], env: { [model.keyVar]: model.key.reveal() } };
  const key: ProxyKey = {
    host: new URL(model.baseUrl).hostname.toLowerCase(),
    header: "authorization",
    value: model.key,
    placeholder: MODEL_KEY_PLACEHOLDER,
  };
  return { ...base, keys: [key], env: { [model.keyVar]: MODEL_KEY_PLACEHOLDER } };
}

/** The keys the agent's proxy adds (SBX-16), for the agent role to hand the proxy. */
export async function modelKeysFor(
  agent: AgentSettings,
  env: ModelWiringOptions["env"],
  options: Omit<ModelWiringOptions, "env"> = {},
): Promise<ProxyKey[]> {
  return [...(await modelWiring(agent, { ...options, env })).keys];
}
