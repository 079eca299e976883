import type * as grants from "../../core/agent/grants/mod.ts";
import type { SandboxSpec, TomlValue } from "../../sandbox/mod.ts";
import { table } from "../table.ts";

/** What `lnk agent allow`/`deny` changed, one line a key, then what changed nothing. */
export function describeGrantChanges(changed: grants.GrantsChanged): string {
  if (changed.changes.length === 0) {
    return [`Nothing changed in "${changed.file}"`, ...changed.notes.map((n) => `  ${n}`)].join("\n");
  }
  return [
    `Changed the grants of "${changed.agent}" in "${changed.file}":`,
    ...changed.changes.map((c) => `  ${c.key}: ${show(c.from)} -> ${show(c.to)}`),
    ...changed.notes.map((n) => `  (${n})`),
  ].join("\n");
}

function show(value: TomlValue | null): string {
  return value === null ? "(unset)" : JSON.stringify(value);
}

/** What every path of the agent runs with, and the grants behind it (SBX-10). */
export function describePermissions(p: grants.AgentPermissions): string {
  const spec = p.effective;
  const key = p.modelKey;
  return [
    `What "${p.agent}" runs with, on every path (harness ${p.harness}):`,
    ...p.paths.map((path) => `  ${path.path}: ${path.runs}`),
    "",
    `Sandbox: ${p.sandbox === "on" ? "on" : "OFF (lnk agent start --sandbox turns it back on)"}`,
    `Model key: ${
      key.keyVar
        ? `${key.wired ? "added by the proxy; the harness holds a placeholder" : "held by the harness"} ` +
          `(${key.by === "setting" ? "set with `lnk agent secret`" : `the default for ${p.harness}`}; ` +
          `${key.provider}, ${key.keyVar} ${key.keySet ? "set" : "not set"})`
        : `none (${key.provider} model)`
    }`,
    "",
    "Grants (Config/sandbox.toml" +
    (p.harnessLayer ? ` and the harness's layer, ${p.harnessLayer.path})` : ")") +
    ":",
    ...grantLines(spec),
    ...(p.harnessLayer?.flags.length
      ? [`  from the harness's layer: ${p.harnessLayer.flags.join(" ")}`]
      : []),
    ...(p.harnessNeeds
      ? [
        `  from the harness's needs, at each start: ${p.harnessNeeds.flags.join(" ")} (${
          p.harnessNeeds.why.join("; ")
        })`,
      ]
      : []),
    ...protectedLines(p.protected),
  ].join("\n");
}

const KEPT: Record<string, string> = {
  pinned: "pinned (bound onto itself: never renamed or replaced)",
  "read-only": "read-only",
  placeholder: "missing: an empty stand-in while it runs, so it cannot be made",
  lifted: "lifted: writable",
};

/** The protected places: the lists, what is kept now, and what the owner lifted. */
function protectedLines(p: grants.ProtectedPermissions | null): string[] {
  if (!p) return [];
  return [
    "",
    "Protected places, read-only wherever it writes (`lnk agent allow --write-protected <path>` lifts one):",
    `  in each writable place and repository (.git pinned): ${p.everywhere.join(", ")}`,
    `  in each repository's .git: ${p.inGit.join(", ")}`,
    `  in your home folder, when it may write there: ${p.inHome.join(", ")}`,
    ...(p.kept.length
      ? ["  kept now:", ...p.kept.map((k) => `    ${k.path}: ${KEPT[k.state]}`)]
      : [`  kept now: none (looked in ${p.places.join(", ") || "no writable place"})`]),
    `  lifted: ${p.lifted.join(", ") || "none"}`,
    ...p.notices.map((n) => `  note: ${n}`),
  ];
}

function grantLines(spec: SandboxSpec): string[] {
  const hosts = spec.internet.hosts.includes("*") ? "any host" : spec.internet.hosts.join(", ") || "none";
  const list = (values: readonly (string | number)[]) => values.join(", ") || "none";
  return [
    "  files:",
    ...Object.entries(spec.files).map(([folder, access]) =>
      `    ${folder === "." ? "Home (.)" : `${folder}/`}: ${access}`
    ),
    `  paths:    read ${list(spec.paths.read)}; write ${list(spec.paths.write)}`,
    `  commands: ${list(spec.commands.allow)}`,
    `  network:  ${spec.network.mode === "host" ? "host: the network as it is" : "proxy"}`,
    `  internet: ${hosts}, ports 443 and 80${
      spec.internet.tcp.length ? `; tcp ${list(spec.internet.tcp)}` : ""
    }`,
    `  lan:      ${list(spec.lan.hosts)}`,
    `  this machine's ports: ${list(spec.localhost.ports)}`,
    ...(spec.tools.outside.length ? [`  tools outside the sandbox: ${list(spec.tools.outside)}`] : []),
    ...(spec.browser.hosts.length ? [`  browser:  ${list(spec.browser.hosts)}`] : []),
    ...Object.entries(spec.teams).map(([team, g]) =>
      `  team ${team}: ${g.all ? "whole folder" : `read ${list(g.read)}; write ${list(g.write)}`}`
    ),
    ...(spec.access.message.length ? [`  may message it: ${list(spec.access.message)}`] : []),
  ];
}

/** `lnk agent harness check`'s table, then the gaps host mode opens (SBX-9). */
export function describeCheck(check: grants.HarnessCheck): string {
  const rows = check.rows.map((r) => [r.check, r.expected, r.result, r.ok ? "ok" : "FAIL"]);
  const failed = check.rows.filter((r) => !r.ok).length;
  const gaps = check.rows.filter((r) => r.gap);
  return [
    `Checked the sandbox of "${check.agent}" (harness ${check.harness}, network ${check.network}):`,
    "",
    table(["check", "expected", "result", "ok"], rows),
    "",
    ...(gaps.length
      ? [
        'Gaps `[network] mode = "host"` opens (`lnk agent deny --network-mode host` closes them):',
        ...gaps.map((g) => `  ${g.check}: ${g.result}`),
        "",
      ]
      : []),
    failed ? `${failed} of ${check.rows.length} checks FAILED` : `All ${check.rows.length} checks hold`,
  ].join("\n");
}
