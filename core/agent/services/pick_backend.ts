import type { LinkPaths } from "../../base/mod.ts";
import { detachedBackend } from "./detached.ts";
import { launchdBackend } from "./launchd.ts";
import type { ServiceBackend } from "./service_backend.ts";
import { systemdBackend } from "./systemd.ts";

/**
 * The service manager this machine runs: launchd on macOS, systemd --user where systemd is PID 1
 * and a user manager answers, a detached process group elsewhere. `LNK_SERVICES` picks one.
 */
export async function pickBackend(
  paths: LinkPaths,
  env: { get(name: string): string | undefined },
): Promise<ServiceBackend> {
  const chosen = env.get("LNK_SERVICES");
  if (chosen === "detached") return detachedBackend(paths);
  if (chosen === "systemd") return systemdBackend(paths);
  if (chosen === "launchd") return launchdBackend(paths);
  if (Deno.build.os === "darwin") return launchdBackend(paths);
  if (await systemdUserRuns()) return systemdBackend(paths);
  return detachedBackend(paths);
}

async function systemdUserRuns(): Promise<boolean> {
  try {
    await Deno.stat("/run/systemd/system");
    const out = await new Deno.Command("systemctl", {
      args: ["--user", "is-system-running"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return /running|degraded|starting/.test(new TextDecoder().decode(out.stdout));
  } catch {
    return false;
  }
}
