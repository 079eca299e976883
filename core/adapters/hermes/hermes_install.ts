import { join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import type { Env } from "../ask_adapter.ts";
import { passedEnv, PROXY_VARS } from "../harness_env.ts";

/** The Hermes release this adapter installs and configures, with its ACP extra (`hermes acp`). */
export const HERMES_RELEASE = "0.21.3";
export const HERMES_REQUIREMENT = `hermes-agent[acp]==${HERMES_RELEASE}`;

/** How a person installs Hermes themselves, as Link's setup step would. */
const INSTALL_COMMAND = "`lnk harness adapter hermes install --json`";

/** The Python the venv is made with: the person's own, found on their PATH. */
const PYTHON = "python3";

/** The venv in the install folder, where pip puts Hermes and its dependencies. */
export function venvOf(install: string): string {
  return join(install, "venv");
}

/** The install's programs: `hermes` and the venv's Python. */
export function installBin(install: string): string {
  return join(venvOf(install), "bin");
}

/** The PATH Hermes runs with: its venv's programs first, then the system's. */
export function installPath(install: string): string {
  return [installBin(install), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

/**
 * The Hermes release installed in the folder, or undefined when none is: its `hermes` program in
 * the venv, and the `hermes_agent-<release>.dist-info` pip writes once the package is in, of the
 * release this adapter runs.
 */
export async function installedVersion(install: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(join(installBin(install), "hermes"));
    if (!info.isFile || ((info.mode ?? 0) & 0o111) === 0) return undefined;
    const lib = join(venvOf(install), "lib");
    for await (const python of Deno.readDir(lib)) {
      if (!python.name.startsWith("python")) continue;
      for await (const entry of Deno.readDir(join(lib, python.name, "site-packages"))) {
        const found = /^hermes_agent-(.+)\.dist-info$/.exec(entry.name);
        if (found?.[1] === HERMES_RELEASE) return found[1];
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/**
 * The indexes the person's pip installs from, as pip itself says them (ADP-9): its config and
 * PIP_* variables (`pip config list`), else the index pip falls back to, asked of pip, with the host
 * its files are served from. Nothing is named here. Empty when pip cannot be run.
 */
export async function pipIndexes(env: Env): Promise<string[]> {
  const own = await pipOwnIndexes(env);
  if (own === undefined || own.none) return [];
  const urls = [...own.index ? [own.index] : [], ...own.extra];
  if (!own.index) {
    const fallback = await runPython(env, [
      "-c",
      "from pip._internal.models.index import PyPI; print(PyPI.simple_url); print('https://' + PyPI.file_storage_domain + '/')",
    ]);
    urls.push(...(fallback ?? "").split("\n").map((l) => l.trim()).filter(Boolean));
  }
  return urls;
}

/** The indexes the person set for pip (`pip config list`), undefined when pip cannot be run. */
async function pipOwnIndexes(
  env: Env,
): Promise<{ index?: string; extra: string[]; none: boolean } | undefined> {
  const listed = await runPython(env, ["-m", "pip", "config", "list"]);
  if (listed === undefined) return undefined;
  let index: string | undefined;
  const extra: string[] = [];
  let none = false;
  for (const line of listed.split("\n")) {
    const setting = /^[^.]*\.([a-z-]+)='(.*)'$/.exec(line.trim());
    if (!setting) continue;
    const [, key, value] = setting;
    if (key === "index-url") index = value!.split(/\s+/).find(Boolean);
    if (key === "extra-index-url") extra.push(...value!.split(/\s+/).filter(Boolean));
    if (key === "no-index" && /^(1|true|yes|on)$/i.test(value!)) none = true;
  }
  return { ...index ? { index } : {}, extra, none };
}

/**
 * What Hermes's install step runs with (its adapter's `stepEnv`): the indexes the person set for
 * pip, as pip inside the step's sandbox cannot read their config.
 */
export async function pipStepEnv(env: Env): Promise<Record<string, string>> {
  const own = await pipOwnIndexes(env);
  if (own === undefined) return {};
  return {
    ...own.index ? { PIP_INDEX_URL: own.index } : {},
    ...own.extra.length ? { PIP_EXTRA_INDEX_URL: own.extra.join(" ") } : {},
    ...own.none ? { PIP_NO_INDEX: "1" } : {},
  };
}

/** The hosts of pip's indexes reached over the internet: a `file:` index needs none. */
export async function pipIndexHosts(env: Env): Promise<string[]> {
  const hosts = new Set<string>();
  for (const url of await pipIndexes(env)) {
    try {
      const parsed = new URL(url);
      if ((parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname) {
        hosts.add(parsed.hostname);
      }
    } catch {
      continue;
    }
  }
  return [...hosts];
}

/**
 * Installs Hermes into the install folder (the setup's `install` step, SBX-13): a venv of the
 * person's Python there, then pip installing the pinned release into it from pip's own index.
 * Nothing is done when the release is there already. A failed install removes the venv it made,
 * so nothing half-installed is taken for an install; the error names pip and its index.
 */
export async function installHermes(
  install: string,
  env: Env,
): Promise<{ version: string; changed: boolean }> {
  const before = await installedVersion(install);
  if (before) return { version: before, changed: false };
  await Deno.mkdir(install, { recursive: true });
  const venv = venvOf(install);
  await Deno.remove(venv, { recursive: true }).catch(() => {});
  try {
    await run(env, [PYTHON, "-m", "venv", venv], { who: PYTHON, what: "make a venv for Hermes" });
    await run(env, [
      join(installBin(install), "python"),
      "-m",
      "pip",
      "install",
      "--no-input",
      "--quiet",
      HERMES_REQUIREMENT,
    ], {
      who: "pip",
      what: `install ${HERMES_REQUIREMENT}`,
    });
    const version = await installedVersion(install);
    if (!version) {
      throw new LinkError("SERVICE_FAILED", `pip installed no Hermes ${HERMES_RELEASE} in ${install}`, {
        hint: `Run ${INSTALL_COMMAND} again: it installs Hermes afresh`,
      });
    }
    return { version, changed: true };
  } catch (err) {
    await Deno.remove(venv, { recursive: true }).catch(() => {});
    if (err instanceof LinkError && err.code === "SERVICE_FAILED" && /^pip /.test(err.message)) {
      const indexes = (await pipIndexes(env)).join(", ") || "none configured";
      throw new LinkError("SERVICE_FAILED", `${err.message} (its index: ${indexes})`, {
        hint: err.hint,
        cause: err.cause,
      });
    }
    throw err;
  }
}

/** Runs Python or pip for the install; SERVICE_FAILED naming `who` and its last error line when it fails. */
async function run(
  env: Env,
  [program, ...args]: string[],
  { who, what }: { who: string; what: string },
): Promise<void> {
  const out = await new Deno.Command(program!, {
    args,
    env: runEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output().catch((err) => {
    throw new LinkError("HARNESS_MISSING", `Cannot run ${program} to ${what}`, {
      hint: `Install Python 3 with its venv module and pip, then run ${INSTALL_COMMAND}`,
      cause: err,
    });
  });
  if (out.success) return;
  const lines = new TextDecoder().decode(out.stderr).split("\n").map((l) => l.trim()).filter(Boolean);
  const last = lines.findLast((l) => l.startsWith("ERROR:")) ?? lines.at(-1) ?? `exit ${out.code}`;
  throw new LinkError("SERVICE_FAILED", `${who} could not ${what}: ${last}`, {
    hint: who === "pip"
      ? `Check that your pip reaches its index (\`python3 -m pip config list\` names it), then run ${INSTALL_COMMAND}`
      : `Check that \`python3 -m venv\` works (some systems need their python3-venv package), then run ${INSTALL_COMMAND}`,
    cause: { exit: out.code },
  });
}

async function runPython(env: Env, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(PYTHON, {
      args,
      env: runEnv(env),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout) : undefined;
  } catch {
    return undefined;
  }
}

/** What Python and pip run with: the person's HOME (their pip config), PATH, pip's and proxy settings. */
const PASSED = [
  "PATH",
  "HOME",
  "LANG",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "PYENV_ROOT",
  "PYENV_VERSION",
  "PIP_CONFIG_FILE",
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_NO_INDEX",
  "PIP_FIND_LINKS",
  "PIP_TRUSTED_HOST",
  "PIP_CERT",
  "PIP_RETRIES",
  "PIP_DEFAULT_TIMEOUT",
  "PIP_DISABLE_PIP_VERSION_CHECK",
  ...PROXY_VARS,
];

function runEnv(env: Env): Record<string, string> {
  return passedEnv(env, PASSED);
}
