import type { ProbeAnswer } from "./probe_protocol.ts";

/** What a request through the proxy came to: let through, refused, or no answer at all. */
export interface ProxyOutcome {
  readonly verdict: "allowed" | "refused" | "failed";
  readonly text: string;
}

/**
 * Reads a proxy probe's answer. The proxy's own refusals (403 and the rest, with `Link-Refused`)
 * are its policy; a name that did not resolve or an upstream that did not answer was allowed by
 * the policy and stopped after, which on a machine without a network is all a check can show.
 */
export function proxyOutcome(answer: ProbeAnswer | undefined): ProxyOutcome {
  if (!answer) return { verdict: "failed", text: "not tried" };
  if (answer.detail === "no proxy") return { verdict: "refused", text: "no proxy: nothing goes out" };
  if (!answer.done) return { verdict: "failed", text: `no answer from the proxy (${answer.detail})` };
  if (answer.refused === "resolve-failed") {
    return { verdict: "allowed", text: "allowed by the proxy (no network here)" };
  }
  if (answer.refused === "upstream-failed") {
    return { verdict: "allowed", text: "allowed by the proxy (the host did not answer)" };
  }
  if (answer.refused) return { verdict: "refused", text: `refused by the proxy (${answer.refused})` };
  return { verdict: "allowed", text: `reached (HTTP ${answer.status})` };
}
