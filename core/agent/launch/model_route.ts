import { findProvider, isLoopbackUrl, type ResolvedModel } from "../../harness/model/mod.ts";
import { MODEL_KEY_PLACEHOLDER } from "../grants/mod.ts";
import type { SandboxProxy } from "../../../sandbox/mod.ts";

/** The model as the harness calls it from where it runs, and the port to relay in for it. */
export interface ModelRoute {
  readonly model: { readonly baseUrl: string; readonly model: string; readonly key?: string };
  /** A port of this machine's loopback relayed into the sandbox, for a model served here. */
  readonly port?: number;
}

/**
 * How a sandboxed harness reaches its model. A model on this machine's loopback (a local server,
 * or a test's fake) is relayed in on its own port, as the proxy never reaches a loopback by
 * design. Any other goes through the proxy in its base-URL form (SBX-19); a hosted provider's
 * key is then the placeholder when the proxy adds the real one (SBX-16), else held by the harness.
 * Without a proxy (network mode "host"), the harness calls the model as it is, holding its key.
 */
export function modelRoute(
  model: ResolvedModel,
  options: { proxy?: SandboxProxy; wired: boolean },
): ModelRoute {
  const key = model.key?.reveal();
  if (!options.proxy) return { model: { baseUrl: model.baseUrl, model: model.model, key } };
  const port = loopbackPort(model);
  if (port !== undefined) {
    const url = new URL(model.baseUrl);
    // The relay inside listens on 127.0.0.1, whichever loopback name the model was given by.
    url.hostname = "127.0.0.1";
    return { model: { baseUrl: url.href.replace(/\/+$/, ""), model: model.model, key }, port };
  }
  const wired = options.wired && findProvider(model.provider) !== undefined && key !== undefined;
  return {
    model: {
      baseUrl: options.proxy.baseUrlFor(model.baseUrl),
      model: model.model,
      key: wired ? MODEL_KEY_PLACEHOLDER : key,
    },
  };
}

/** The port a model on this machine's loopback is served on, relayed into a proxied sandbox; else undefined. */
export function loopbackPort(model: ResolvedModel): number | undefined {
  if (!isLoopbackUrl(model.baseUrl)) return undefined;
  const url = new URL(model.baseUrl);
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}
