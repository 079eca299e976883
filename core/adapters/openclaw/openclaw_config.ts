import { join } from "node:path";
import { atomicWrite, LinkError, logger, readTextIfExists } from "../../base/mod.ts";
import { installedVersion, installPath, OPENCLAW_ENV } from "./openclaw_install.ts";
import { adapterHash, hashOf, isRecord, jsonObjectOf } from "../adapter_hash.ts";

/** The adapter's own files, which its configured hash covers (ADP-1). */
const ADAPTER_FILES = [
  new URL("./openclaw_config.ts", import.meta.url),
  new URL("./openclaw_install.ts", import.meta.url),
  new URL("./openclaw_launch.ts", import.meta.url),
];

const log = logger("openclaw");

/** What configure reads (ADP-1): nothing of the spec, the environment or Link's other settings. */
export interface OpenClawSetup {
  /** The install folder (read-only inside the sandbox). */
  readonly install: string;
  /** The harness home: OpenClaw's HOME inside the sandbox. */
  readonly home: string;
  /** The gateway's port: the agent's endpoint port (main keeps 18789, PRT-1). */
  readonly port: number;
  /** The agent's model, OpenAI-compatible, as the sandbox reaches it (Link's proxy). */
  readonly model: { readonly baseUrl: string; readonly model: string };
  /**
   * The model's key as the hub hands it (OPENAI_API_KEY): Link's placeholder, which the proxy
   * replaces with the real key on its way to the provider (SBX-16, SBX-17), or the key itself for
   * an agent set to hold it (`lnk agent secret hold`); "none" for a model with no key.
   */
  readonly key: string;
  /** The risks the person allowed (ADP-13): the managed browser among them. */
  readonly allowed: readonly string[];
}

/** The files of the harness home configure writes, relative to it. */
export const CONFIG_FILE = ".openclaw/openclaw.json";
export const TOKEN_FILE = ".lnk/gateway_token";
/** The adapter's own hash of what it wrote, beside Link's `.lnk/configured` (which covers the setup step). */
export const CONFIGURED_FILE = ".lnk/openclaw-configured";
/** Written by the launcher while its gateway is live in the sandbox, removed when it ends. */
export const LIVE_FILE = ".lnk/gateway_live.json";
/** The release `doctor --fix` last succeeded for (ADP-3). */
export const DOCTOR_FILE = ".lnk/doctor";

/** The key written when none is handed: a model that takes none (a local one) is sent this. */
export const NO_KEY = "none";
/** The provider Link's model is named as in OpenClaw's config. */
const PROVIDER = "lnk";

/** How long doctor --fix may take. */
const DOCTOR_TIMEOUT_MS = 120_000;

/**
 * Configures OpenClaw in the harness home (ADP-1, ADP-2, ADP-3, ADP-13): its config's keys Link
 * owns (the gateway on the agent's port, local, on the loopback, with its token; the agent's model
 * as an OpenAI-compatible provider with the key the hub hands, a placeholder the proxy replaces unless
 * the agent holds its key; the managed
 * browser on only when allowed; no update checks), merged into whatever else the config holds.
 * When `.lnk/openclaw-configured` holds the hash of all it covers (these settings, both releases, the
 * adapter itself, the config as written) it writes nothing; a config the harness edited no longer
 * matches, so it is rewritten. `openclaw doctor --fix` runs once per install of a release, marked
 * only when it succeeds, so a failed one runs again at the next configure.
 */
export async function configureOpenClaw(
  setup: OpenClawSetup,
): Promise<{ changed: boolean; wrote: string[] }> {
  const version = await installedVersion(setup.install);
  if (!version) {
    throw new LinkError("HARNESS_MISSING", `OpenClaw is not installed in ${setup.install}`, {
      hint: "Start the agent again: Link installs OpenClaw before it configures it",
    });
  }
  const at = (file: string) => join(setup.home, file);
  const wrote: string[] = [];
  let token = (await readTextIfExists(at(TOKEN_FILE)))?.trim();
  if (!token) {
    token = randomToken();
    await atomicWrite(at(TOKEN_FILE), `${token}\n`, { mode: 0o600 });
    wrote.push(TOKEN_FILE);
  }
  const owned = ownedConfig(setup, token);
  const adapter = await adapterHash(ADAPTER_FILES);
  const current = await readTextIfExists(at(CONFIG_FILE));
  const doctorDone = (await readTextIfExists(at(DOCTOR_FILE)))?.trim() === version;
  const expected = await hashOf({ owned, version, adapter, config: current ?? "" });
  if (
    doctorDone && current !== undefined && (await readTextIfExists(at(CONFIGURED_FILE)))?.trim() === expected
  ) {
    return { changed: wrote.length > 0, wrote };
  }
  const merged = mergeOwned(jsonObjectOf(current), owned);
  const text = `${JSON.stringify(merged, null, 2)}\n`;
  if (text !== current) {
    await atomicWrite(at(CONFIG_FILE), text, { mode: 0o600 });
    wrote.push(CONFIG_FILE);
  }
  if (!doctorDone && await runDoctor(setup)) {
    await atomicWrite(at(DOCTOR_FILE), `${version}\n`);
    wrote.push(DOCTOR_FILE);
  }
  const after = await readTextIfExists(at(CONFIG_FILE)) ?? "";
  await atomicWrite(at(CONFIGURED_FILE), `${await hashOf({ owned, version, adapter, config: after })}\n`);
  wrote.push(CONFIGURED_FILE);
  return { changed: true, wrote };
}

/** The keys of OpenClaw's config Link owns, from the settings alone. */
export function ownedConfig(setup: OpenClawSetup, token: string): Record<string, unknown> {
  return {
    gateway: { mode: "local", port: setup.port, bind: "loopback", auth: { mode: "token", token } },
    models: {
      mode: "merge",
      providers: {
        [PROVIDER]: {
          baseUrl: setup.model.baseUrl,
          apiKey: setup.key,
          api: "openai-completions",
          models: [{ id: setup.model.model, name: setup.model.model, reasoning: false, input: ["text"] }],
        },
      },
    },
    agents: { defaults: { model: { primary: `${PROVIDER}/${setup.model.model}` } } },
    browser: { enabled: setup.allowed.includes("managed-browser") },
    update: { checkOnStart: false },
  };
}

/** The config with Link's keys set over it, the rest as the harness left it. */
export function mergeOwned(
  config: Record<string, unknown>,
  owned: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(owned)) {
    const had = out[key];
    // A provider's entry and the model list are Link's whole; a section is merged key by key.
    out[key] = isRecord(value) && isRecord(had) && key !== PROVIDER && key !== "auth"
      ? mergeOwned(had, value)
      : value;
  }
  return out;
}

/** Runs `openclaw doctor --fix` in the harness home; whether it succeeded. */
async function runDoctor(setup: OpenClawSetup): Promise<boolean> {
  log.info("Running openclaw doctor --fix, once for this install", { install: setup.install });
  try {
    const out = await new Deno.Command(join(setup.install, "node_modules", ".bin", "openclaw"), {
      args: ["doctor", "--fix", "--non-interactive"],
      cwd: setup.home,
      env: {
        HOME: setup.home,
        PATH: installPath(setup.install),
        ...OPENCLAW_ENV,
        ...(Deno.env.get("TMPDIR") ? { TMPDIR: Deno.env.get("TMPDIR")! } : {}),
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(DOCTOR_TIMEOUT_MS),
    }).output();
    if (!out.success) {
      const said = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1) ?? "";
      log.warn("openclaw doctor --fix failed: it runs again at the next start", { code: out.code, said });
    }
    return out.success;
  } catch (err) {
    log.warn("openclaw doctor --fix did not run: it runs again at the next start", { error: err });
    return false;
  }
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}
