import { type AgentKey, decodeKey, LinkError } from "../../base/mod.ts";

/** What the endpoint needs of an agent before it is loaded: who it is, and its key to answer proofs. */
export interface AgentHead {
  readonly id: string;
  readonly name: string;
  readonly key: AgentKey;
}

/**
 * The agents of `lnk harness serve`'s input line as far as its endpoint needs them at once: each
 * one's ID, name and key, checked here by hand so that proofs are answered while the input's
 * schema (HarnessServeInput, with the spec's and the grants') is still loading (PRC-13). The whole
 * line is validated against that schema before any other field of it is used.
 */
export function servedHeads(line: string): AgentHead[] {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    throw invalidInput("it is not JSON", err);
  }
  const agents = isRecord(raw) ? raw.agents : undefined;
  if (!Array.isArray(agents) || agents.length === 0) throw invalidInput("it names no agent");
  return agents.map((agent: unknown, i) => {
    if (
      !isRecord(agent) || typeof agent.id !== "string" || typeof agent.name !== "string" ||
      typeof agent.key !== "string"
    ) {
      throw invalidInput(`agent ${i + 1} lacks its id, name or key`);
    }
    try {
      return { id: agent.id, name: agent.name, key: decodeKey(agent.key) };
    } catch (err) {
      throw invalidInput(`agent ${i + 1}'s key is not hex`, err);
    }
  });
}

/** The input line was not what the agent's start writes. */
export function invalidInput(why: string, cause?: unknown): LinkError {
  return new LinkError("USAGE", `Cannot start Link Harness: its input line is not valid: ${why}`, {
    hint: "Link Harness is started by `lnk agent start`, which writes its input",
    cause,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
