import { z } from "zod";
import { type LinkPaths, parseToml, readTextIfExists, validateToml } from "../../base/mod.ts";
import { type GrantFlags, SandboxSpec } from "../../../sandbox/mod.ts";

/** A harness's grant layer as read: its file, the grants as `lnk agent allow` flags, and what it may not add. */
export interface HarnessLayer {
  readonly path: string;
  readonly flags: GrantFlags;
  /** Keys of the file that a harness's layer cannot widen, each said once (GRT-24, GRT-25). */
  readonly ignored: readonly string[];
}

/** The grant sections of a sandbox spec, checked as in the agent's file; other tables (answers) pass. */
const LayerSections = z.looseObject(SandboxSpec.shape).partial();

/**
 * Reads a harness's grant layer, `~/.lnk/harnesses/<harness>.toml` (GRT-2): the sections of a
 * sandbox spec that its needs were granted (GRT-16), in the agent's own terms. Tables other than
 * spec sections (the answers kept with the needs, GRT-19) belong to whoever asks and are passed
 * over. Undefined when the file is absent: a harness needing nothing runs with the agent's grants
 * alone (GRT-3). A problem names the file, line and key.
 */
export async function loadHarnessLayer(paths: LinkPaths, harness: string): Promise<HarnessLayer | undefined> {
  const path = paths.harnessToml(harness);
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  validateToml(
    LayerSections,
    text,
    path,
    `Fix these harness grants, or move "${path}" aside to run the harness with the agent's grants alone`,
  );
  return { path, ...layerFlags(parseToml(text, path) as Raw) };
}

type Raw = Record<string, Record<string, unknown> | undefined>;

const LISTS: readonly [section: string, key: string, flag: keyof GrantFlags][] = [
  ["paths", "read", "read"],
  ["paths", "write", "write"],
  ["internet", "tcp", "tcp"],
  ["lan", "hosts", "lan-host"],
  ["commands", "allow", "command"],
  ["tools", "outside", "tool"],
  ["browser", "hosts", "browser-host"],
];

/** The layer's grants as allow flags; hosts, teams, access and protected places are the agent's alone. */
function layerFlags(raw: Raw): { flags: GrantFlags; ignored: string[] } {
  const flags: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [section, key, flag] of LISTS) {
    const list = raw[section]?.[key];
    if (Array.isArray(list) && list.length) flags[flag] = list.map(String);
  }
  const ports = raw.localhost?.ports;
  if (Array.isArray(ports) && ports.length) flags.port = ports.map(String);
  if (raw.network?.mode === "host") flags["network-mode"] = "host";
  const files = raw.files;
  if (files) flags.files = Object.entries(files).map(([folder, access]) => `${folder}=${access}`);
  // The agent's hosts stay as they are, whichever harness runs it (SBX-12, GRT-25).
  if (raw.internet?.hosts !== undefined) ignored.push("internet.hosts");
  // Lifting a protected place is the owner's alone ([protected], `lnk agent allow --write-protected`).
  for (const own of ["teams", "access", "protected"]) if (raw[own] !== undefined) ignored.push(own);
  return { flags: flags as GrantFlags, ignored };
}
