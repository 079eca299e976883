import { LinkError } from "../base/mod.ts";
import type { Env } from "./ask_adapter.ts";
import { passedEnv, PROXY_VARS } from "./harness_env.ts";

/**
 * What npm runs with: the person's HOME (their npm config), PATH, proxy (in an install step's
 * sandbox, the step's own, its only way out: SBX-13), the certificates their machine trusts for its
 * registry, and npm's own settings.
 */
const NPM_VARS: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "TMPDIR",
  ...PROXY_VARS,
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "npm_config_cafile",
  "npm_config_cache",
  "npm_config_registry",
  "NPM_CONFIG_USERCONFIG",
  "NPM_CONFIG_REGISTRY",
];

/** The variables npm runs with, of those set in `env`. */
export function npmEnv(env: Env): Record<string, string> {
  return passedEnv(env, NPM_VARS);
}

/**
 * The registry the person's npm uses (ADP-9): read from npm's own config at run time (`npm config
 * get registry`), so no registry is named here. Undefined when npm is missing.
 */
export async function npmRegistry(env: Env): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("npm", {
      args: ["config", "get", "registry"],
      env: npmEnv(env),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return undefined;
    const url = new TextDecoder().decode(out.stdout).trim();
    return URL.canParse(url) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The host of the registry the person's npm uses: the install step's `internet-hosts` (ADP-9). */
export async function npmRegistryHost(env: Env): Promise<string | undefined> {
  const url = await npmRegistry(env);
  return url ? new URL(url).hostname || undefined : undefined;
}

/**
 * The registry the person's npm uses as "host:port" (the scheme's port when it names none), for the
 * proxy of an install step to reach wherever it resolves; undefined when npm names none.
 */
export async function npmRegistryEndpoint(env: Env): Promise<string | undefined> {
  const url = await npmRegistry(env);
  if (!url) return undefined;
  const parsed = new URL(url);
  if (!parsed.hostname) return undefined;
  const port = parsed.port || (parsed.protocol === "http:" ? "80" : "443");
  return `${parsed.hostname.replace(/^\[(.*)\]$/, "$1")}:${port}`;
}

/**
 * What an install step by npm runs with (a built-in adapter's `stepEnv`): the registry the person's
 * npm uses, as npm inside the step's sandbox cannot read their config.
 */
export async function npmStepEnv(env: Env): Promise<Record<string, string>> {
  const url = await npmRegistry(env);
  return url ? { npm_config_registry: url } : {};
}

/**
 * `npm install --prefix <install> <packages>` from the registry the person's npm uses, the
 * install's own programs (`bin`) first on the PATH. An npm that cannot run is HARNESS_MISSING; one
 * that fails is a SERVICE_FAILED with npm's code and its first line of detail, and `hint`.
 */
export async function npmInstall(
  install: string,
  packages: readonly string[],
  env: Env,
  options: { bin: string; title: string; hint: string },
): Promise<void> {
  const out = await new Deno.Command("npm", {
    args: ["install", "--prefix", install, "--no-audit", "--no-fund", "--loglevel=error", ...packages],
    env: { ...npmEnv(env), PATH: `${options.bin}:${env.get("PATH") ?? "/usr/bin:/bin"}` },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output().catch((err) => {
    throw new LinkError("HARNESS_MISSING", `Cannot run npm to install ${options.title}`, {
      hint: "Install Node.js and npm, then start the agent again",
      cause: err,
    });
  });
  if (!out.success) {
    throw new LinkError(
      "SERVICE_FAILED",
      `npm could not install ${packages.join(" ")}: ${npmSaid(out.stderr)}`,
      {
        hint: options.hint,
      },
    );
  }
}

/** What npm said of its failure: its code and its first line of detail ("ETARGET: No matching version..."). */
function npmSaid(stderr: Uint8Array): string {
  const lines = new TextDecoder().decode(stderr).split("\n").map((l) =>
    l.replace(/^npm (error|ERR!) ?/, "").trim()
  )
    .filter((l) => l && !/^A complete log|^\/.*\.log$/.test(l));
  const code = lines.find((l) => /^code \S+$/.test(l))?.slice(5);
  const detail = lines.find((l) => !/^code \S+$/.test(l));
  return [code, detail].filter(Boolean).join(": ") || "it said nothing";
}
