import { LinkError } from "../core/base/mod.ts";
import { SandboxSpec } from "../core/spec/mod.ts";
import type { SandboxTomlChange } from "./edit_sandbox_toml.ts";

/**
 * The grant flags `lnk sandbox run`, `lnk agent allow` and `lnk agent deny` share (GRT-4): each
 * may repeat but --network-mode.
 */
export const GRANT_FLAGS = {
  multiple: [
    "read",
    "write",
    "files",
    "host",
    "tcp",
    "lan-host",
    "port",
    "command",
    "tool",
    "browser-host",
    "write-protected",
  ],
  string: ["network-mode"],
} as const;

/** The usage line of the grant flags. */
export const GRANT_USAGE =
  "[--read <path>] [--write <path>] [--files <folder>=<none|read|write>] [--host <h>] " +
  "[--tcp <host>:<port>] [--network-mode proxy|host] [--lan-host <h>] [--port <n>] [--command <prog>] " +
  "[--tool <name>] [--browser-host <h>] [--write-protected <path>]";

/** Grant flags as parsed: each list as given on the command line. */
export type GrantFlags = Partial<Record<(typeof GRANT_FLAGS.multiple)[number], readonly string[]>> & {
  readonly "network-mode"?: string;
};

/** What applyGrants made: the new spec, the keys of the file to rewrite, and what changed nothing. */
export interface GrantResult {
  readonly spec: SandboxSpec;
  readonly changes: SandboxTomlChange[];
  readonly notes: string[];
}

type ListKey = [
  table: "paths" | "internet" | "lan" | "commands" | "tools" | "browser" | "protected",
  key: string,
];

const LISTS: Record<string, ListKey> = {
  read: ["paths", "read"],
  write: ["paths", "write"],
  host: ["internet", "hosts"],
  tcp: ["internet", "tcp"],
  "lan-host": ["lan", "hosts"],
  command: ["commands", "allow"],
  tool: ["tools", "outside"],
  "browser-host": ["browser", "hosts"],
  // A protected place (a repository's .git/hooks, .vscode, ~/.bashrc) the agent may write after all.
  "write-protected": ["protected", "writable"],
};

/**
 * Turns grant flags into a changed spec: "allow" adds what they name, "deny" takes it back, so
 * the two mirror each other. --files sets a folder's access (deny lowers it: write to read, else
 * none); deny --write keeps reading; deny --host on "*" is refused, since "*" holds every host.
 * --write-protected lifts the protection of one protected place (and what is in it); deny puts it back.
 */
export function applyGrants(spec: SandboxSpec, flags: GrantFlags, mode: "allow" | "deny"): GrantResult {
  const next = structuredClone(spec);
  const touched = new Set<string>();
  const notes: string[] = [];
  for (const [flag, [table, key]] of Object.entries(LISTS)) {
    for (const raw of (flags as Record<string, readonly string[] | undefined>)[flag] ?? []) {
      const value = checkValue(flag, raw);
      const list = (next[table] as Record<string, string[]>)[key]!;
      if (mode === "allow") addTo(list, value, notes, flag);
      else denyFrom(next, flag, list, value, notes);
      touched.add(`${table}.${key}`);
      if (flag === "write" || flag === "read") touched.add("paths.read").add("paths.write");
    }
  }
  for (const raw of flags.port ?? []) {
    const port = Number(raw);
    if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw usage(`--port "${raw}" is not a port number`);
    const ports = next.localhost.ports;
    if (mode === "allow" && !ports.includes(port)) ports.push(port);
    else if (mode === "deny" && ports.includes(port)) next.localhost.ports = ports.filter((p) => p !== port);
    else notes.push(`port ${port} was ${mode === "allow" ? "already allowed" : "not allowed"}`);
    touched.add("localhost.ports");
  }
  for (const raw of flags.files ?? []) applyFiles(next, raw, mode, touched);
  if (flags["network-mode"] !== undefined) applyNetworkMode(next, flags["network-mode"], mode, touched);
  const checked = SandboxSpec.safeParse(next);
  if (!checked.success) throw usage(checked.error.issues.map((i) => i.message).join("; "));
  return { spec: checked.data, changes: changesFor(checked.data, touched), notes };
}

function addTo(list: string[], value: string, notes: string[], flag: string): void {
  if (list.includes(value)) notes.push(`--${flag} "${value}" was already allowed`);
  else list.push(value);
}

function denyFrom(spec: SandboxSpec, flag: string, list: string[], value: string, notes: string[]): void {
  if (flag === "host" && value !== "*" && list.includes("*")) {
    throw new LinkError("REFUSED", `Cannot deny host "${value}": every host is allowed ("*")`, {
      hint: 'Run `lnk agent deny --host "*"`, then allow the hosts the agent needs with --host',
    });
  }
  const had = list.includes(value) || (flag === "read" && spec.paths.write.includes(value));
  if (!had) notes.push(`--${flag} "${value}" was not allowed`);
  if (flag === "read") spec.paths.write = spec.paths.write.filter((p) => p !== value);
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
  // Taking writing away keeps reading.
  if (flag === "write" && at >= 0 && !spec.paths.read.includes(value)) spec.paths.read.push(value);
}

function applyFiles(spec: SandboxSpec, raw: string, mode: "allow" | "deny", touched: Set<string>): void {
  const at = raw.lastIndexOf("=");
  const folder = at < 0 ? raw : raw.slice(0, at);
  const level = at < 0 ? undefined : raw.slice(at + 1);
  if (!folder || (level !== undefined && !["none", "read", "write"].includes(level))) {
    throw usage(`--files "${raw}" must be <folder>=<none|read|write>, such as work=write`);
  }
  if (mode === "allow" && level === undefined) {
    throw usage(`--files "${raw}" needs a level, such as ${raw}=write`);
  }
  spec.files[folder] = mode === "allow"
    ? level as "none" | "read" | "write"
    : level === "write"
    ? "read"
    : "none";
  touched.add(`files.${folder}`);
}

function applyNetworkMode(
  spec: SandboxSpec,
  raw: string,
  mode: "allow" | "deny",
  touched: Set<string>,
): void {
  if (raw !== "proxy" && raw !== "host") throw usage(`--network-mode "${raw}" must be proxy or host`);
  if (mode === "deny" && raw === "proxy") {
    throw usage("--network-mode proxy cannot be denied: it is the default");
  }
  spec.network.mode = mode === "allow" ? raw : "proxy";
  touched.add("network.mode");
}

function checkValue(flag: string, raw: string): string {
  const value = raw.trim();
  if (!value) throw usage(`--${flag} needs a value`);
  if (["read", "write", "write-protected"].includes(flag) && !/^(~|~\/.*|\/.*)$/.test(value)) {
    throw usage(`--${flag} "${raw}" must be a full path, starting with "/" or "~"`);
  }
  if (flag === "tcp" && !/^[^\s:/]+:\d{1,5}$/.test(value)) {
    throw usage(`--tcp "${raw}" must be host:port, such as github.com:22`);
  }
  return value;
}

function changesFor(spec: SandboxSpec, touched: Set<string>): SandboxTomlChange[] {
  return [...touched].map((path) => {
    const dot = path.indexOf(".");
    const table = path.slice(0, dot);
    const key = path.slice(dot + 1);
    const value =
      (spec as unknown as Record<string, Record<string, SandboxTomlChange["value"]>>)[table]![key];
    return { table: [table], key, value };
  });
}

function usage(what: string): LinkError {
  return new LinkError("USAGE", `Cannot change the grants: ${what}`, {
    hint: `Grant flags: ${GRANT_USAGE}`,
  });
}

/** Picks the grant flags out of parsed flag values. */
export function grantFlagsFrom(values: Readonly<Record<string, unknown>>): GrantFlags {
  const flags: Record<string, unknown> = {};
  for (const name of GRANT_FLAGS.multiple) {
    const value = values[name];
    if (Array.isArray(value) && value.length) flags[name] = value.map(String);
  }
  if (typeof values["network-mode"] === "string") flags["network-mode"] = values["network-mode"];
  return flags as GrantFlags;
}
