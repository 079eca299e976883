import { readTextIfExists } from "../base/mod.ts";
import type { LinkPaths } from "../base/mod.ts";
import { layoutOf } from "./layout.ts";
import type { AgentSettings } from "./settings.ts";
import { parseSandboxSpec, parseSpec, type SandboxSpec, type Spec } from "../spec/mod.ts";

/** An agent's spec and grants, read and checked; an error names the file, line and key. */
export interface AgentConfig {
  spec: Spec;
  sandbox: SandboxSpec;
}

/** Reads an agent's Config/spec.toml and Config/sandbox.toml (a missing file reads as the defaults). */
export async function loadAgentConfig(paths: LinkPaths, settings: AgentSettings): Promise<AgentConfig> {
  const layout = layoutOf(paths, settings);
  const spec = parseSpec((await readTextIfExists(layout.specToml)) ?? "", layout.specToml);
  const sandbox = parseSandboxSpec((await readTextIfExists(layout.sandboxToml)) ?? "", layout.sandboxToml);
  return { spec, sandbox };
}
