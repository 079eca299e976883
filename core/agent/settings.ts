import { z } from "zod";
import {
  atomicWrite,
  LinkError,
  type LinkPaths,
  lockFile,
  readTextIfExists,
  stringifyToml,
  validateToml,
} from "../base/mod.ts";
import { WEBHOOK_NAME } from "../spec/mod.ts";
import { AcpSettings } from "../adapters/mod.ts";

/**
 * An agent's webhooks (WHK-1..3): the listener's port, chosen once and kept so a tunnel to it keeps
 * working across restarts, and each hook by name with the sift plugin that checks its posts. Their
 * secrets are files of their own beside these settings (core/webhooks/).
 */
export const WebhookSettings = z.strictObject({
  port: z.number().int().min(1).max(65535).optional(),
  hooks: z.record(
    z.string().regex(WEBHOOK_NAME),
    z.strictObject({ sift: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/), created: z.string() }),
  ).default({}),
});
export type WebhookSettings = z.infer<typeof WebhookSettings>;

/** An agent's settings (`~/.lnk/agents/<id>/settings.toml`): written by Link, never by a sandbox. */
export const AgentSettings = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{6,64}$/),
  name: z.string().min(1),
  /** The one owner (IDN-8): a stand-in until signed in, then `acct-<id>` (IDN-5). */
  owner: z.string().min(1),
  harness: z.string().min(1).default("link"),
  model: z.string().min(1).optional(),
  model_url: z.url().optional(),
  /** A Home the person picked with --files (LAY-2); the agent's own folder otherwise. */
  home: z.string().min(1).optional(),
  created: z.string().optional(),
  ports: z.strictObject({
    /** The harness's endpoint port: the door the bridge holds. */
    endpoint: z.number().int().min(1).max(65535),
    /** The first port of the agent's block of ten (PRT-3, U-4). */
    block: z.number().int().min(1).max(65530),
  }),
  sandbox: z.strictObject({
    /** Off only by `lnk agent start --no-sandbox`, which persists (GRT-6). */
    enabled: z.boolean().default(true),
  }).prefault({}),
  /** Whether the proxy adds the hosted model's key (SBX-16); the harness's default when unset (SBX-17). */
  secrets: z.strictObject({ wire: z.boolean().optional() }).optional(),
  /** Connections, one map (CON-4): each as its plugin's connect made it. */
  bots: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** The acp harness's command (`--acp-command`), kept for the agent. */
  acp: AcpSettings.optional(),
  /** Absent until the first `lnk agent webhook add`. */
  webhooks: WebhookSettings.optional(),
});
export type AgentSettings = z.infer<typeof AgentSettings>;

/** What the person gave for a harness in the agent's settings (acp's command), as adapters are handed it. */
export function harnessSettingsOf(agent: AgentSettings, harness: string): Record<string, unknown> {
  const own = (agent as Record<string, unknown>)[harness];
  return typeof own === "object" && own !== null ? own as Record<string, unknown> : {};
}

/** Reads an agent's settings by ID; AGENT_NOT_FOUND when there are none. */
export async function loadSettings(paths: LinkPaths, id: string): Promise<AgentSettings> {
  const path = paths.settingsToml(id);
  const text = await readTextIfExists(path);
  if (text === undefined) {
    throw new LinkError("AGENT_NOT_FOUND", `Cannot find the settings of agent "${id}"`, {
      hint: "Run `lnk agent list` to see your agents",
    });
  }
  return validateToml(AgentSettings, text, path, "Fix these agent settings");
}

/** Writes an agent's settings atomically, so two commands at once never leave half a file. */
export async function saveSettings(paths: LinkPaths, settings: AgentSettings): Promise<void> {
  const checked = AgentSettings.parse(settings);
  const text = `# Agent "${checked.name}": written by Link. No sandbox ever sees this file.\n${
    stringifyToml(checked as Record<string, unknown>)
  }`;
  await atomicWrite(paths.settingsToml(checked.id), text, { mode: 0o600 });
}

/**
 * Changes an agent's settings under a lock, so two `lnk` commands on one agent never lose each
 * other's change: read, change, write, all while holding the agent's settings lock.
 */
export async function updateSettings(
  paths: LinkPaths,
  id: string,
  change: (settings: AgentSettings) => AgentSettings | Promise<AgentSettings>,
): Promise<AgentSettings> {
  await Deno.mkdir(paths.agentState(id), { recursive: true, mode: 0o700 });
  using _lock = await lockFile(`${paths.settingsToml(id)}.lock`);
  const next = await change(await loadSettings(paths, id));
  await saveSettings(paths, next);
  return next;
}

/**
 * The ID as the settings file holds it, read raw: no loader, no migration, no write (IDN-3).
 * An agent from before IDs is keyed by its name (IDN-4).
 */
export async function readIdRaw(path: string): Promise<string | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  // Top-level keys come before the first table, so only that part is searched.
  const top = text.split(/^\s*\[/m)[0] ?? "";
  const id = /^\s*id\s*=\s*"([^"]+)"/m.exec(top)?.[1];
  if (id) return id;
  return /^\s*name\s*=\s*"([^"]+)"/m.exec(top)?.[1];
}
