import { join } from "node:path";
import { atomicWrite, LinkError, readTextIfExists, type Secret } from "../../base/mod.ts";
import { installedVersion } from "./hermes_install.ts";
import { mergeEnv, mergeYamlSections, yamlSection } from "./hermes_files.ts";
import { adapterHash, hashOf } from "../adapter_hash.ts";

/** The adapter's own files, which its configured hash covers (ADP-1). */
const ADAPTER_FILES = [
  new URL("./hermes_config.ts", import.meta.url),
  new URL("./hermes_files.ts", import.meta.url),
  new URL("./hermes_install.ts", import.meta.url),
  new URL("./hermes_launch.ts", import.meta.url),
];

/** What configure reads (ADP-1): nothing of the spec, the environment or Link's other settings. */
export interface HermesSetup {
  /** The install folder (read-only inside the sandbox). */
  readonly install: string;
  /** The harness home: Hermes's HOME inside the sandbox, its HERMES_HOME the `.hermes` in it. */
  readonly home: string;
  /** Its API server's port: the agent's endpoint port (main keeps 8642, PRT-1). */
  readonly port: number;
  /** The agent's model, OpenAI-compatible, as the sandbox reaches it (Link's proxy): never a key. */
  readonly model: { readonly baseUrl: string; readonly model: string };
  /** The risks the person allowed (ADP-13). */
  readonly allowed: readonly string[];
  /**
   * The model key the hub hands Hermes: Link's placeholder when the proxy adds the key (SBX-17),
   * the key itself when the person has the harness hold it. Link's placeholder when not given.
   */
  readonly key?: Secret;
}

/** Hermes's folder in the harness home: HERMES_HOME. */
export const HERMES_DIR = ".hermes";
/** The files of the harness home configure writes, relative to it. */
export const CONFIG_FILE = ".hermes/config.yaml";
export const ENV_FILE = ".hermes/.env";
/** The adapter's own hash of what it wrote, beside Link's `.lnk/configured` (which covers the setup step). */
export const CONFIGURED_FILE = ".lnk/hermes-configured";

/**
 * What the proxy replaces with the real key (SBX-16, SBX-17): Link's placeholder, as the hub hands
 * it to every harness whose key is wired (core/agent/grants' MODEL_KEY_PLACEHOLDER, a layer the
 * adapters cannot import; a test holds the two equal).
 */
export const PLACEHOLDER_KEY = "link-placeholder";
/** Where Hermes's API server would listen: the loopback alone. */
const API_HOST = "127.0.0.1";

/**
 * Configures Hermes in the harness home (ADP-1, ADP-2, ADP-13): in HERMES_HOME's config.yaml the
 * sections Link owns (`model`: the agent's model as an OpenAI-compatible `custom` provider at the
 * URL Link hands it; `platforms`: its API server on the agent's port on the loopback, off, as Link
 * carries every connection and Hermes answers through `hermes acp`), the rest of the file as the
 * harness left it; in its .env the key the hub hands (the placeholder the proxy replaces, unless
 * the person has the harness hold its key) and the same settings as Hermes's variables, the other
 * lines kept. When `.lnk/hermes-configured` holds the hash of all it covers (these settings, the
 * risks allowed, both releases, the adapter itself, both files as written) it writes nothing; an edited config or a missing .env no longer matches, so they are
 * written again. No risk of Hermes's changes its config: the allowed list is in the hash alone.
 */
export async function configureHermes(setup: HermesSetup): Promise<{ changed: boolean; wrote: string[] }> {
  const version = await installedVersion(setup.install);
  if (!version) {
    throw new LinkError("HARNESS_MISSING", `Hermes is not installed in ${setup.install}`, {
      hint: "Install it with `lnk harness adapter hermes install --json`, then start the agent again",
    });
  }
  const at = (file: string) => join(setup.home, file);
  const owned = ownedSettings(setup);
  const config = await readTextIfExists(at(CONFIG_FILE));
  const env = await readTextIfExists(at(ENV_FILE));
  const expected = await settingsHash(setup, version, { config, env });
  if ((await readTextIfExists(at(CONFIGURED_FILE)))?.trim() === expected) {
    return { changed: false, wrote: [] };
  }
  const wrote: string[] = [];
  await Deno.mkdir(at(HERMES_DIR), { recursive: true, mode: 0o700 });
  const configText = mergeYamlSections(
    config ?? "",
    Object.entries(owned.config).map(([key, value]) => yamlSection(key, value)),
  );
  if (configText !== config) {
    await atomicWrite(at(CONFIG_FILE), configText, { mode: 0o600 });
    wrote.push(CONFIG_FILE);
  }
  const envText = mergeEnv(env ?? "", owned.env);
  if (envText !== env) {
    await atomicWrite(at(ENV_FILE), envText, { mode: 0o600 });
    wrote.push(ENV_FILE);
  }
  const written = await settingsHash(setup, version, { config: configText, env: envText });
  await atomicWrite(at(CONFIGURED_FILE), `${written}\n`);
  wrote.push(CONFIGURED_FILE);
  return { changed: true, wrote };
}

/** What Link owns of Hermes's config.yaml (by top-level section) and .env (by variable). */
export function ownedSettings(setup: HermesSetup): {
  config: Record<string, Record<string, unknown>>;
  env: Record<string, string>;
  allowed: string[];
} {
  return {
    config: {
      model: { provider: "custom", base_url: setup.model.baseUrl, default: setup.model.model },
      platforms: { api_server: { enabled: false, extra: { host: API_HOST, port: setup.port } } },
    },
    env: {
      OPENAI_API_KEY: setup.key?.reveal() ?? PLACEHOLDER_KEY,
      OPENAI_BASE_URL: setup.model.baseUrl,
      API_SERVER_ENABLED: "false",
      API_SERVER_HOST: API_HOST,
      API_SERVER_PORT: String(setup.port),
    },
    allowed: [...setup.allowed].sort(),
  };
}

/** The hash ADP-1 keeps: Link's settings, both releases, the adapter, and both files' bytes. */
async function settingsHash(
  setup: HermesSetup,
  version: string,
  files: { config: string | undefined; env: string | undefined },
): Promise<string> {
  return await hashOf({
    owned: ownedSettings(setup),
    version,
    adapter: await adapterHash(ADAPTER_FILES),
    config: files.config ?? null,
    env: files.env ?? null,
  });
}
