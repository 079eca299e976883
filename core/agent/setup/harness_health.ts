import { type LinkError, toLinkError } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { isLinks, runHealthStep } from "./run_setup.ts";

/** Whether a running outside harness answers, and how Link found out (SBX-15). */
export interface HarnessHealth {
  readonly ok: boolean;
  readonly detail?: string;
  /** "port": its port answered a plain request with a 2xx; "sandbox": its adapter's health check ran. */
  readonly by: "port" | "sandbox";
}

/** How long the plain request to the harness's port may take. */
const PLAIN_MS = 3_000;

/**
 * A running outside harness's health (SBX-15): a plain `GET /` to its port first, and a 2xx is up
 * with no sandbox; any other answer, or none, runs its adapter's `health` in a sandbox with no
 * network but that port (SBX-13). Undefined for a harness Link ships or an adapter without
 * `health`. `port` is the agent's endpoint unless told (tests).
 */
export async function harnessHealth(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { port?: number; signal?: AbortSignal } = {},
): Promise<HarnessHealth | undefined> {
  if (isLinks(agent.harness)) return undefined;
  const port = options.port ?? agent.ports.endpoint;
  const plain = await askPlain(port);
  if (plain.ok) return { ok: true, detail: `its port answered ${plain.status}`, by: "port" };
  try {
    const answer = await runHealthStep(ctx, agent, { port, signal: options.signal });
    if (!answer) return undefined;
    return { ok: answer.ok, detail: answer.detail ?? plain.said, by: "sandbox" };
  } catch (err) {
    const error: LinkError = toLinkError(err);
    return { ok: false, detail: error.message, by: "sandbox" };
  }
}

async function askPlain(port: number): Promise<{ ok: boolean; status?: number; said: string }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(PLAIN_MS) });
    await res.body?.cancel();
    return {
      ok: res.status >= 200 && res.status < 300,
      status: res.status,
      said: `its port answered ${res.status}`,
    };
  } catch {
    return { ok: false, said: "its port did not answer" };
  }
}
