import { join } from "node:path";
import { atomicWrite, LinkError, type LinkPaths } from "../../base/mod.ts";
import type { ServiceBackend, ServiceDefinition, ServiceState } from "./service_backend.ts";
import type { ServiceNames } from "./service_names.ts";

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The launchd agent of a service, with its log beside Link's run folder. */
export function launchdPlist(service: ServiceDefinition, logPath: string): string {
  const env = Object.entries(service.env).filter(([k]) =>
    k === "HOME" || k === "PATH" || k.startsWith("LNK_")
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    `  <key>Label</key><string>${xml(service.names.launchd)}</string>`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...service.argv.map((a) => `    <string>${xml(a)}</string>`),
    "  </array>",
    "  <key>EnvironmentVariables</key>",
    "  <dict>",
    ...env.map(([k, v]) => `    <key>${xml(k)}</key><string>${xml(v)}</string>`),
    "  </dict>",
    "  <key>RunAtLoad</key><true/>",
    "  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>",
    `  <key>StandardErrorPath</key><string>${xml(logPath)}</string>`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}

async function launchctl(...args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command("launchctl", { args, stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

/** The backend for macOS: launchd agents in ~/Library/LaunchAgents. */
export function launchdBackend(paths: LinkPaths): ServiceBackend {
  const plistPath = (n: ServiceNames) => join(paths.launchAgents, `${n.launchd}.plist`);
  const logPath = (n: ServiceNames) => join(paths.run, `${n.base}.log`);
  const domain = () => `gui/${Deno.uid()}`;
  const status = async (n: ServiceNames): Promise<ServiceState> => {
    const { code, out } = await launchctl("print", `${domain()}/${n.launchd}`);
    if (code !== 0) return { running: false };
    const pid = Number(/\bpid = (\d+)/.exec(out)?.[1] ?? 0);
    return { running: pid > 0, pid: pid || undefined, died: pid === 0 && /last exit code = [1-9]/.test(out) };
  };
  return {
    kind: "launchd",
    async start(service) {
      await Deno.mkdir(paths.run, { recursive: true });
      await atomicWrite(plistPath(service.names), launchdPlist(service, logPath(service.names)));
      const { code, out } = await launchctl("bootstrap", domain(), plistPath(service.names));
      if (code !== 0) {
        throw new LinkError("SERVICE_FAILED", `Cannot start "${service.names.launchd}": ${out.trim()}`, {
          hint: `See \`launchctl print ${domain()}/${service.names.launchd}\``,
        });
      }
      return { ...(await status(service.names)), ready: {} };
    },
    async stop(n) {
      await launchctl("bootout", `${domain()}/${n.launchd}`);
    },
    status,
    async logs(n, lines) {
      const text = await Deno.readTextFile(logPath(n)).catch(() => "");
      return text.split("\n").filter(Boolean).slice(-lines).join("\n");
    },
    async remove(n) {
      await this.stop(n);
      await Deno.remove(plistPath(n)).catch(() => {});
    },
  };
}
