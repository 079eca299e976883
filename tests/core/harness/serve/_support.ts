import { join } from "node:path";
import {
  type AgentKey,
  encodeKey,
  newAgentKey,
  type RoleProcess,
  spawnRole,
} from "../../../../core/base/mod.ts";
import { layoutOf, loadSettings } from "../../../../core/agent/mod.ts";
import { openEndpoint, type ProvenEndpoint } from "../../../../connections/mod.ts";
import { filesStore, type StoredEvent } from "../../../../core/harness/store/mod.ts";
import { KeptAnswers, keptDir } from "../../../../core/harness/mod.ts";
import type { FakeModel } from "../../../fakes/fake_model.ts";
import { runJson, type TempHome } from "../../../support/mod.ts";

/** An agent made with `lnk agent create`, calling the fake model, and the key its harness gets. */
export interface ServedAgent {
  id: string;
  name: string;
  key: AgentKey;
  /** `~/Link/Agents/<name>/Agent` and `Home`. */
  agentDir: string;
  homeDir: string;
}

/** Creates an agent in a temporary home whose model is the fake. */
export async function createServedAgent(
  home: TempHome,
  model: FakeModel,
  spec?: string,
): Promise<ServedAgent> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  const layout = layoutOf(home.paths, settings);
  if (spec) await Deno.writeTextFile(layout.specToml, spec);
  return { id, name: settings.name, key: newAgentKey(), agentDir: layout.agent, homeDir: layout.home };
}

/** Starts `lnk harness serve` as a child, as `lnk agent run` does, on a socket of its own. */
export function startHarness(home: TempHome, agent: ServedAgent, socket: string): Promise<RoleProcess> {
  const input = JSON.stringify({ agents: [{ id: agent.id, name: agent.name, key: encodeKey(agent.key) }] });
  return spawnRole(["harness", "serve", "--socket", socket], {
    input: `${input}\n`,
    env: home.env.toObject(),
    clearEnv: true,
  });
}

/** A socket path in the home. */
export function socketIn(home: TempHome, name: string): string {
  return join(home.path, `${name}.sock`);
}

/** Opens a proven connection to a harness process, as a bridge does. */
export function connect(agent: ServedAgent, socket: string): Promise<ProvenEndpoint> {
  return openEndpoint({ path: socket }, { agentId: agent.id, agentName: agent.name, key: agent.key });
}

/** The agent's conversation as stored, read from outside the harness. */
export async function storedEvents(agent: ServedAgent, conversation = "link:main"): Promise<StoredEvent[]> {
  await using store = filesStore(join(agent.agentDir, "chats"));
  return await store.read(conversation);
}

/** The answers the harness keeps for `/_link/recover`. */
export function keptOf(agent: ServedAgent): KeptAnswers {
  return new KeptAnswers(keptDir(agent.agentDir));
}
