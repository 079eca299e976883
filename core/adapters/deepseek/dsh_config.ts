import { join } from "node:path";
import { atomicWrite, LinkError, readTextIfExists } from "../../base/mod.ts";
import { installedVersion } from "./dsh_install.ts";
import { adapterHash, hashOf, isRecord, jsonObjectOf } from "../adapter_hash.ts";

/** The adapter's own files, which its configured hash covers (ADP-1). */
const ADAPTER_FILES = [
  new URL("./dsh_config.ts", import.meta.url),
  new URL("./dsh_install.ts", import.meta.url),
  new URL("./dsh_launch.ts", import.meta.url),
];

/** What configure reads (ADP-1): nothing of the spec, the environment or Link's other settings. */
export interface DshSetup {
  /** The install folder (read-only inside the sandbox). */
  readonly install: string;
  /** The harness home: dsh's HOME inside the sandbox, its DSH_HOME `.dsh` under it. */
  readonly home: string;
  /** The agent's model, OpenAI-compatible, as the sandbox reaches it (Link's proxy): never a key. */
  readonly model: { readonly baseUrl: string; readonly model: string };
}

/** dsh's own folder in its HOME (its DSH_HOME), relative to the harness home. */
export const DSH_HOME_DIR = ".dsh";
/**
 * The files of the harness home configure writes, relative to it: dsh's settings document (YAML,
 * written as JSON, which YAML reads alike) and its managed credentials document.
 */
export const SETTINGS_FILE = `${DSH_HOME_DIR}/settings.yaml`;
export const CREDENTIALS_FILE = `${DSH_HOME_DIR}/.credentials.yaml`;
/** The adapter's own hash of what it wrote, beside Link's `.lnk/configured` (which covers the setup step). */
export const CONFIGURED_FILE = ".lnk/dsh-configured";

/**
 * The key dsh holds in its credentials document: the proxy puts the agent's real key in its place
 * in the request's header (SBX-17), so a key never enters the sandbox. It is the proxy's own
 * placeholder word; the variable the hub hands (OPENAI_API_KEY) wins over it, as dsh's
 * credentials go, and holds the same placeholder when the key is wired.
 */
export const PLACEHOLDER_KEY = "link-placeholder";
/** The variable dsh's provider route reads its key from. */
export const KEY_VARIABLE = "OPENAI_API_KEY";
/** The provider route Link's model is named as in dsh's settings. */
export const PROVIDER = "lnk";

/**
 * Configures DeepSeek Harness in the harness home (ADP-1, ADP-2, ADP-13): in its settings document,
 * the agent's model as a provider route of dsh's pi-ai adapter (OpenAI-compatible, at the base URL
 * Link hands it, its key read from OPENAI_API_KEY) and the default model new sessions take; in its
 * credentials document, the placeholder key under that name. Other sections and keys are kept as
 * the harness left them. When `.lnk/dsh-configured` holds the hash of all it covers (these settings,
 * the release, the adapter itself, the files as written) it writes nothing; a file the harness
 * edited no longer matches, so Link's keys are put back.
 */
export async function configureDsh(setup: DshSetup): Promise<{ changed: boolean; wrote: string[] }> {
  const version = await installedVersion(setup.install);
  if (!version) {
    throw new LinkError("HARNESS_MISSING", `DeepSeek Harness is not installed in ${setup.install}`, {
      hint: "Install it with `lnk harness adapter deepseek install --json`, then start the agent again",
    });
  }
  if (!setup.model.baseUrl || !setup.model.model) {
    throw new LinkError("CONFIG_INVALID", "DeepSeek Harness's configure was given no model", {
      hint: 'Give it as {"model": {"baseUrl": "...", "model": "..."}} in its input (docs/adapters.md)',
    });
  }
  const at = (file: string) => join(setup.home, file);
  const owned = ownedSettings(setup);
  const adapter = await adapterHash(ADAPTER_FILES);
  const settings = await readTextIfExists(at(SETTINGS_FILE));
  const credentials = await readTextIfExists(at(CREDENTIALS_FILE));
  const hashNow = (s: string, c: string) => hashOf({ owned, version, adapter, settings: s, credentials: c });
  if (
    settings !== undefined && credentials !== undefined &&
    (await readTextIfExists(at(CONFIGURED_FILE)))?.trim() === await hashNow(settings, credentials)
  ) {
    return { changed: false, wrote: [] };
  }
  const wrote: string[] = [];
  const settingsText = `${JSON.stringify(mergeOwned(jsonObjectOf(settings), owned), null, 2)}\n`;
  if (settingsText !== settings) {
    await atomicWrite(at(SETTINGS_FILE), settingsText, { mode: 0o600 });
    wrote.push(SETTINGS_FILE);
  }
  const credentialsText = withPlaceholder(credentials);
  if (credentialsText !== credentials) {
    await atomicWrite(at(CREDENTIALS_FILE), credentialsText, { mode: 0o600 });
    wrote.push(CREDENTIALS_FILE);
  }
  await atomicWrite(at(CONFIGURED_FILE), `${await hashNow(settingsText, credentialsText)}\n`);
  wrote.push(CONFIGURED_FILE);
  return { changed: true, wrote };
}

/** The sections of dsh's settings Link owns, from the settings alone. */
export function ownedSettings(setup: DshSetup): Record<string, unknown> {
  return {
    "llm-pi-ai": {
      providers: {
        [PROVIDER]: {
          displayName: "Link",
          api: "openai-completions",
          baseURL: setup.model.baseUrl,
          apiKeyEnv: KEY_VARIABLE,
          models: [{ id: setup.model.model }],
        },
      },
    },
    "agent-default-model": { provider: PROVIDER, model: setup.model.model },
  };
}

/** The settings with Link's keys set over them, the rest as the harness left them. */
export function mergeOwned(
  settings: Record<string, unknown>,
  owned: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(owned)) {
    const had = out[key];
    // Link's provider route is Link's whole; a section is merged key by key.
    out[key] = isRecord(value) && isRecord(had) && key !== PROVIDER ? mergeOwned(had, value) : value;
  }
  return out;
}

/**
 * The credentials document with the placeholder under dsh's key variable, its other lines kept:
 * the document is a flat mapping of one `NAME: value` a line.
 */
function withPlaceholder(text: string | undefined): string {
  const line = `${KEY_VARIABLE}: ${PLACEHOLDER_KEY}`;
  const others = (text ?? "").split("\n").filter((l) => l.trim() && !l.startsWith(`${KEY_VARIABLE}:`));
  return `${[line, ...others].join("\n")}\n`;
}
