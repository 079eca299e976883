import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isLinkError, roleEnv } from "../core/base/mod.ts";
import type { RuntimePaths, SandboxInput } from "./plan_sandbox.ts";
import { expandHome, hiddenPaths } from "./hidden_paths.ts";
import { probeSystem } from "./probe_system.ts";
import { type SandboxAgent, VISIBLE_COLLECTIONS } from "./files_mounts.ts";
import type { SandboxSpec } from "../core/spec/mod.ts";
import { type SpecSource, whereOf } from "./spec_refusal.ts";
import { closeFd, walkNoFollow } from "./walk_no_follow.ts";
import { writableRoots, writeGrantsOfAgents } from "./writable_roots.ts";

/** A sandbox as its caller knows it: planSandbox's input before this machine is looked at. */
export type SandboxRequest = Omit<SandboxInput, "system" | "realPaths" | "runtime"> & {
  /** Deno and Link's source, read-only inside; Link's own unless told, none with false. */
  readonly runtime?: RuntimePaths | false;
};

/**
 * Looks at this machine for planSandbox: bubblewrap and the system's layout, where Deno and Link
 * are, and the real location of every path a grant or a hidden place names, each part opened
 * without following a link an agent could have made (walkNoFollow): such a link is refused with
 * SYMLINK_REFUSED naming it and the grant's line, so no grant is led into what Link hides or
 * anywhere else. `probe: false` leaves bubblewrap and the runtime out (`lnk agent allow` checks
 * the grants it writes without starting anything).
 */
export async function resolveSandboxInput(
  request: SandboxRequest,
  options: { readonly probe?: boolean } = {},
): Promise<SandboxInput> {
  const home = request.paths.home;
  const writable = widen(writableRoots({ ...request, writable: await writeGrantsOfAgents(request.paths) }));
  const real = (path: string, what: string) => realOf(path, writable, what);
  const realPaths: Record<string, string> = {};
  const note = (path: string, what: string) => {
    const found = real(path, what);
    if (found !== path) realPaths[path] = found;
  };
  const { spec, source } = request;
  for (const access of ["read", "write"] as const) {
    for (const [i, raw] of spec.paths[access].entries()) {
      note(expandHome(raw, home), `the grant "${raw}" (${whereOf(source, ["paths", access, i])})`);
    }
  }
  // A lifted place is named, not followed: its folder's real path and its own name (a link there may be lifted too).
  for (const raw of [spec, ...(request.also ?? []).map((a) => a.spec)].flatMap((s) => s.protected.writable)) {
    const path = expandHome(raw, home);
    try {
      const found = join(
        real(dirname(path), `the protected place "${raw}" the agent may write`),
        basename(path),
      );
      if (found !== path) realPaths[path] = found;
    } catch (err) {
      if (!isLinkError(err, "SYMLINK_REFUSED")) throw err;
    }
  }
  for (const path of hiddenPaths(request.paths, request.hide)) note(path, `"${path}", which Link hides`);
  note(home, "your home folder");
  const teams: Record<string, string> = {};
  for (const [team, folder] of Object.entries(request.teams ?? {})) {
    teams[team] = real(folder, `the folder of team "${team}"`);
    const grant = spec.teams[team];
    for (const name of [...grant?.read ?? [], ...grant?.write ?? []]) {
      note(join(teams[team], name), `the folder "${name}" of team "${team}"`);
    }
  }
  const agent = request.agent && realAgent(request.agent, spec, source, real);
  const also = request.also?.map((more) => ({
    ...more,
    agent: realAgent(more.agent, more.spec, more.source, real),
    netDir: real(more.netDir, "its socket folder"),
  }));
  return {
    ...request,
    agent,
    also,
    teams,
    harnessHome: real(request.harnessHome, "the harness's home"),
    readOnly: request.readOnly?.map((folder) => real(folder, "a folder Link shows read-only")),
    netDir: request.netDir && real(request.netDir, "its socket folder"),
    system: options.probe === false ? { bwrap: "bwrap", top: [], secrets: [] } : await probeSystem(),
    runtime: request.runtime === false || options.probe === false
      ? undefined
      : request.runtime ?? await linkRuntime(),
    realPaths,
    writable,
  };
}

/** The agent's Home and Agent/ at their real paths, and each folder [files] names in Home checked the same way. */
function realAgent(
  agent: SandboxAgent,
  spec: SandboxSpec,
  source: SpecSource | undefined,
  real: (path: string, what: string) => string,
): SandboxAgent {
  const home = real(agent.home, "the agent's Home");
  for (const name of Object.keys(spec.files)) {
    if (name === "." || (VISIBLE_COLLECTIONS as readonly string[]).includes(name)) continue;
    real(join(home, name), `the folder "${name}" of [files] (${whereOf(source, ["files", name])})`);
  }
  return { ...agent, home, agentDir: real(agent.agentDir, "the agent's Agent/ folder") };
}

/** The places given and their real paths; one that leads through an agent's link adds only itself. */
function widen(given: readonly string[]): string[] {
  const all = new Set(given);
  for (const path of given) {
    try {
      all.add(realOf(path, given, "a writable place"));
    } catch (err) {
      if (!isLinkError(err, "SYMLINK_REFUSED")) throw err;
    }
  }
  return [...all];
}

function realOf(path: string, writable: readonly string[], what: string): string {
  const found = walkNoFollow(path, { writable, what });
  if (found.fd !== undefined) closeFd(found.fd);
  return found.real;
}

/** Where this Deno and this Link are: the binary alone when compiled, else the checkout and cache. */
export async function linkRuntime(): Promise<RuntimePaths> {
  const deno = await realPath(Deno.execPath());
  if (Deno.build.standalone) return { deno };
  const checkout = dirname(dirname(fileURLToPath(import.meta.url)));
  const { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: npmRegistry } = roleEnv();
  return {
    deno,
    checkout: await realPath(checkout),
    denoDir: denoDir && await realPath(denoDir),
    ...(npmRegistry ? { npmRegistry } : {}),
  };
}

async function realPath(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return path;
    throw err;
  }
}
