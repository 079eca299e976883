/**
 * An agent with a hosted model (OpenAI's) started in its sandbox in this process, so its proxy can
 * be pointed at a loopback fake standing in for api.openai.com: the name resolves from a table, the
 * checked address is dialled to the fake, and "TLS" hands the connection back. With the fake made
 * to refuse a request without the real key (`serveFakeModel({ key: HOSTED_KEY })`), an answer
 * proves the proxy added it (SBX-16, SBX-17).
 */
import { agentContext, bindKey, layoutOf, loadAgentConfig, loadSettings } from "../../core/agent/mod.ts";
import { type HarnessProcess, startSandboxedHarness } from "../../core/agent/launch/mod.ts";
import type { serveFakeModel } from "../fakes/fake_model.ts";
import { runJson, type TempHome } from "./mod.ts";
import type { TestAgent } from "./sandboxed_agent.ts";

/** The hosted provider's key, set for Link's process as OPENAI_API_KEY. */
export const HOSTED_KEY = "sk-real-0123456789abcdef";
/** An address api.openai.com resolves to in the table: public, so the proxy dials it. */
export const OPENAI_ADDRESS = "104.18.7.192";

/** The hosted model the agent is made with. */
export const HOSTED_MODEL = "openai/gpt-4.1-nano";

/** A hosted agent's harness running here, what its proxy dialled, and the agent. */
export interface HostedHarness {
  readonly harness: HarnessProcess;
  readonly dialled: [string, number][];
  readonly id: string;
  readonly agent: TestAgent;
}

/**
 * Makes agent `name` on `harness` with the hosted model (after `create`'s own flags, `more`), the
 * key set for Link, and starts its sandboxed harness here: what it dialled, and the agent as
 * askEndpoint takes it. Dispose of `harness` to stop it.
 */
export async function startHostedHarness(
  home: TempHome,
  model: Awaited<ReturnType<typeof serveFakeModel>>,
  options: { name: string; harness: string; more?: readonly string[] },
): Promise<HostedHarness> {
  home.env.set("OPENAI_API_KEY", HOSTED_KEY);
  const { id } = await runJson<{ id: string }>(
    [
      "agent",
      "create",
      options.name,
      "--harness",
      options.harness,
      ...options.more ?? [],
      "--model",
      HOSTED_MODEL,
    ],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  const key = await bindKey(home.paths, id);
  const { spec } = await loadAgentConfig(home.paths, settings);
  const dialled: [string, number][] = [];
  const harness = await startSandboxedHarness(agentContext(home.env), settings, key, {
    spec,
    modelCandidates: [],
    upstream: {
      resolve: (name) => Promise.resolve(name === "api.openai.com" ? [OPENAI_ADDRESS] : []),
      dial: (address, port) => {
        dialled.push([address, port]);
        return Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(model.url).port) });
      },
      startTls: (conn) => Promise.resolve(conn),
      localNetworks: [],
      machineNames: [],
    },
  });
  return { harness, dialled, id, agent: { id, name: settings.name, layout: layoutOf(home.paths, settings) } };
}
