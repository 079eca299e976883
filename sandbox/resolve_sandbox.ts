import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { roleEnv } from "../core/base/mod.ts";
import type { RuntimePaths, SandboxInput } from "./plan_sandbox.ts";
import { expandHome, hiddenPaths } from "./hidden_paths.ts";
import { probeSystem } from "./probe_system.ts";

/** A sandbox as its caller knows it: planSandbox's input before this machine is looked at. */
export type SandboxRequest = Omit<SandboxInput, "system" | "realPaths" | "runtime"> & {
  /** Deno and Link's source, read-only inside; Link's own unless told, none with false. */
  readonly runtime?: RuntimePaths | false;
};

/**
 * Looks at this machine for planSandbox: bubblewrap and the system's layout, where Deno and Link
 * are, and the real location of every path a grant or a hidden place names, so that no symlink
 * leads a grant into what Link hides.
 */
export async function resolveSandboxInput(request: SandboxRequest): Promise<SandboxInput> {
  const home = request.paths.home;
  const named = [
    ...request.spec.paths.read,
    ...request.spec.paths.write,
  ].map((p) => expandHome(p, home));
  const hidden = hiddenPaths(request.paths, request.hide);
  const realPaths: Record<string, string> = {};
  for (const path of [...named, ...hidden]) {
    const real = await realPath(path);
    if (real !== path) realPaths[path] = real;
  }
  const teams: Record<string, string> = {};
  for (const [team, folder] of Object.entries(request.teams ?? {})) teams[team] = await realPath(folder);
  const agent = request.agent && {
    ...request.agent,
    home: await realPath(request.agent.home),
    agentDir: await realPath(request.agent.agentDir),
  };
  const also = request.also && await Promise.all(request.also.map(async (more) => ({
    ...more,
    agent: {
      ...more.agent,
      home: await realPath(more.agent.home),
      agentDir: await realPath(more.agent.agentDir),
    },
    netDir: await realPath(more.netDir),
  })));
  return {
    ...request,
    agent,
    also,
    teams,
    harnessHome: await realPath(request.harnessHome),
    netDir: request.netDir && await realPath(request.netDir),
    system: await probeSystem(),
    runtime: request.runtime === false ? undefined : request.runtime ?? await linkRuntime(),
    realPaths,
  };
}

/** Where this Deno and this Link are: the binary alone when compiled, else the checkout and cache. */
export async function linkRuntime(): Promise<RuntimePaths> {
  const deno = await realPath(Deno.execPath());
  if (Deno.build.standalone) return { deno };
  const checkout = dirname(dirname(fileURLToPath(import.meta.url)));
  const denoDir = roleEnv().DENO_DIR;
  return { deno, checkout: await realPath(checkout), denoDir: denoDir && await realPath(denoDir) };
}

async function realPath(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return path;
    throw err;
  }
}
