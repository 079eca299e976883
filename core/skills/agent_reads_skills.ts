import { z } from "zod";
import { parseToml, readTextIfExists } from "../base/mod.ts";
import type { AgentLayout, AgentSettings } from "../agent/mod.ts";
import { KNOWN } from "../adapters/mod.ts";

/** Whether the agent's harness reads Link's Agent/skills/: only one Link knows does so (SKL-4). */
export function harnessReadsSkills(agent: AgentSettings): boolean {
  return KNOWN[agent.harness]?.readsSkills === true;
}

/** Only `[memory] on` matters here: the rest of the spec is the harness's to judge. */
const MemorySection = z.looseObject({
  memory: z.looseObject({ on: z.boolean().optional() }).optional(),
});

/**
 * Whether memory is on for the agent (SKL-6): opt-in, so off unless its spec says
 * `[memory] on = true`. A spec that cannot be read says nothing of memory: off.
 */
export async function memoryOn(layout: AgentLayout): Promise<boolean> {
  try {
    const text = await readTextIfExists(layout.specToml);
    if (text === undefined) return false;
    return MemorySection.safeParse(parseToml(text, layout.specToml)).data?.memory?.on === true;
  } catch {
    return false;
  }
}
