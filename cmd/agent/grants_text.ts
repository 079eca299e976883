import type { SandboxSpec } from "../../sandbox/mod.ts";

/** What an agent's sandbox file grants, in words, one line a grant. */
export function describeGrants(name: string, sandboxed: boolean, spec: SandboxSpec): string {
  const files = Object.entries(spec.files).map(([folder, access]) =>
    `    ${folder === "." ? "Home (.)" : `${folder}/`}: ${access}`
  );
  const hosts = spec.internet.hosts.includes("*") ? "any host" : spec.internet.hosts.join(", ") || "none";
  return [
    `What "${name}" runs with (every path of the agent: harness, its tools, its commands):`,
    `  sandbox:  ${sandboxed ? "on" : "OFF (lnk agent start --sandbox turns it back on)"}`,
    "  files:",
    ...files,
    `  commands: ${spec.commands.allow.join(", ") || "none"}`,
    `  internet: ${
      spec.network.mode === "host"
        ? "the network as it is (host mode)"
        : `through its proxy: ${hosts}, ports 443 and 80`
    }`,
    ...(spec.internet.tcp.length ? [`  tcp:      ${spec.internet.tcp.join(", ")}`] : []),
    ...(spec.lan.hosts.length ? [`  lan:      ${spec.lan.hosts.join(", ")}`] : []),
    ...(spec.localhost.ports.length ? [`  this machine's ports: ${spec.localhost.ports.join(", ")}`] : []),
    ...(spec.tools.outside.length ? [`  tools outside the sandbox: ${spec.tools.outside.join(", ")}`] : []),
    ...(spec.browser.hosts.length ? [`  browser:  ${spec.browser.hosts.join(", ")}`] : []),
    ...Object.entries(spec.teams).map(([team, g]) =>
      `  team ${team}: ${
        g.all ? "whole folder" : `read ${g.read.join(", ") || "-"}; write ${g.write.join(", ") || "-"}`
      }`
    ),
    ...(spec.access.message.length ? [`  may message it: ${spec.access.message.join(", ")}`] : []),
  ].join("\n");
}
