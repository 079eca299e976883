import { readTextIfExists } from "../../base/mod.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";

const LIST_FLAGS: readonly [flag: string, section: string, key: string][] = [
  ["read", "paths", "read"],
  ["write", "paths", "write"],
  ["tcp", "internet", "tcp"],
  ["lan-host", "lan", "hosts"],
  ["command", "commands", "allow"],
  ["tool", "tools", "outside"],
  ["browser-host", "browser", "hosts"],
  ["port", "localhost", "ports"],
];

/**
 * The agent's own grants (Config/sandbox.toml) as the flag lines a need is asked by: a need they
 * hold already is never asked (GRT-19). A write grant holds a read of the same path.
 */
export async function ownGrantKeys(ctx: AgentContext, agent: AgentSettings): Promise<Set<string>> {
  const layout = layoutOf(ctx.paths, agent);
  const text = (await readTextIfExists(layout.sandboxToml)) ?? DEFAULT_SANDBOX_TOML;
  const spec = parseSandboxSpec(text, layout.sandboxToml) as unknown as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const keys = new Set<string>();
  for (const [flag, section, key] of LIST_FLAGS) {
    const list = spec[section]?.[key];
    if (Array.isArray(list)) { for (const value of list) keys.add(`--${flag} ${value}`); }
  }
  for (const value of (spec.paths?.write as unknown[] | undefined) ?? []) keys.add(`--read ${value}`);
  const files = (spec.files ?? {}) as Record<string, string>;
  for (const [folder, access] of Object.entries(files)) {
    keys.add(`--files ${folder}=${access}`);
    if (access === "write") keys.add(`--files ${folder}=read`);
  }
  if (spec.network?.mode === "host") keys.add("--network-mode host");
  return keys;
}
