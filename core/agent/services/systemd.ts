import { join } from "node:path";
import { atomicWrite, LinkError, type LinkPaths, readTextIfExists } from "../../base/mod.ts";
import type { ServiceBackend, ServiceDefinition, ServiceState } from "./service_backend.ts";
import type { ServiceNames } from "./service_names.ts";

function quote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)
    ? arg
    : `"${arg.replace(/(["\\$])/g, "\\$1").replace(/%/g, "%%")}"`;
}

/** The systemd --user unit of a service: restarted when it fails, never reachable from a sandbox. */
export function systemdUnit(service: ServiceDefinition): string {
  const env = Object.entries(service.env).filter(([k]) =>
    k === "HOME" || k === "PATH" || k.startsWith("LNK_")
  );
  return [
    "[Unit]",
    `Description=${service.description}`,
    "After=network.target",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${service.argv.map(quote).join(" ")}`,
    ...env.map(([k, v]) => `Environment=${quote(`${k}=${v}`)}`),
    "Restart=on-failure",
    "RestartSec=1",
    "KillMode=control-group",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

async function systemctl(...args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command("systemctl", {
    args: ["--user", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

/** The backend for Linux with a systemd user manager. */
export function systemdBackend(paths: LinkPaths): ServiceBackend {
  const unitPath = (n: ServiceNames) => join(paths.systemdUser, n.systemd);
  const status = async (n: ServiceNames): Promise<ServiceState> => {
    const { out } = await systemctl("show", n.systemd, "--property=ActiveState,MainPID");
    const active = /ActiveState=(\w+)/.exec(out)?.[1];
    const pid = Number(/MainPID=(\d+)/.exec(out)?.[1] ?? 0);
    return { running: active === "active", pid: pid || undefined, died: active === "failed" };
  };
  return {
    kind: "systemd",
    async start(service) {
      // A wake starts the same unit again: only a changed unit is written and reloaded.
      const unit = systemdUnit(service);
      if ((await readTextIfExists(unitPath(service.names))) !== unit) {
        await atomicWrite(unitPath(service.names), unit, { mode: 0o644 });
        await systemctl("daemon-reload");
      }
      const { code, out } = await systemctl("start", service.names.systemd);
      if (code !== 0) {
        throw new LinkError("SERVICE_FAILED", `Cannot start "${service.names.systemd}": ${out.trim()}`, {
          hint: `See \`journalctl --user -u ${service.names.systemd}\``,
        });
      }
      return { ...(await status(service.names)), ready: {} };
    },
    async stop(n) {
      await systemctl("stop", n.systemd);
    },
    status,
    async logs(n, lines) {
      const out = await new Deno.Command("journalctl", {
        args: ["--user", "-u", n.systemd, "-n", String(lines), "--no-pager", "-o", "cat"],
        stdout: "piped",
        stderr: "null",
      }).output();
      return new TextDecoder().decode(out.stdout).trimEnd();
    },
    async remove(n) {
      await systemctl("disable", "--now", n.systemd);
      await Deno.remove(unitPath(n)).catch(() => {});
      await systemctl("daemon-reload");
    },
  };
}
