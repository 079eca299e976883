import { z } from "zod";
// The grant flags' names alone, a file of no imports: what knows harnesses by name loads no sandbox.
import { GRANT_FLAGS } from "../../sandbox/grant_flags.ts";

/**
 * The adapter contract, version 2 (ADP-12, GRT-17, U-54): what `lnk-<harness> <command> --json`
 * answers, one zod schema per command. docs/adapters.md says it for an outside author. An answer
 * of `{}` to any command is "nothing to say": the command needs nothing more, and Link goes on
 * with its defaults (GRT-17). Unknown keys of an answer are passed over, so a newer adapter keeps
 * working here, except in `needs`, where anything unknown is refused (GRT-15, GRT-22).
 */
export const CONTRACT_VERSION = 2;

/** The commands of the contract, each answered as one JSON object on stdout. */
export const ADAPTER_COMMANDS = [
  "contract",
  "needs",
  "internet-hosts",
  "connections",
  "endpoint",
  "state",
  "folders",
  "configure",
  "install",
  "link",
  "health",
] as const;
export type AdapterCommand = typeof ADAPTER_COMMANDS[number];

/**
 * The fields an adapter may say it has, each additive, so older adapters keep working unchecked:
 * `proof` its endpoint answers challenges (ADP-8), `agent` it answers as the agent a request names
 * (ADP-4), `serve` a store driver's (ADP-17), `tools` it narrows a conversation's tools (TRN-12).
 */
export const CONTRACT_FIELDS = ["proof", "agent", "serve", "tools"] as const;
export type ContractField = typeof CONTRACT_FIELDS[number];

/** `contract`: the version it speaks, the commands it answers (all when absent) and its fields. */
export const ContractAnswer = z.looseObject({
  version: z.number().int().min(1),
  commands: z.array(z.string()).optional(),
  fields: z.array(z.string()).default([]),
});
export type ContractAnswer = z.infer<typeof ContractAnswer>;

/** A path of this machine in a need: absolute or under the home with "~", never relative (GRT-16). */
const NeedPath = z.string().regex(/^(~|~\/.*|\/.*)$/, 'must start with "/" or "~": no relative path').refine(
  (p) => !p.split("/").includes(".."),
  'must not contain ".."',
);
const HostPort = z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'must be "host:port"');
const Access = z.enum(["none", "read", "write"]);

/**
 * A need's sandbox spec (GRT-16): the sections of a sandbox file a harness may add to, as `lnk
 * sandbox run --spec` takes them, with no name, version or relative path. The internet's hosts
 * are the agent's alone (GRT-25) and a harness cannot ask for less than the defaults (GRT-24), so
 * neither is here; an unknown section or key is refused, naming it (GRT-15).
 */
export const NeedsSpec = z.strictObject({
  files: z.record(z.string().regex(/^[^/\\\0]+$/), Access).optional(),
  paths: z.strictObject({ read: z.array(NeedPath).optional(), write: z.array(NeedPath).optional() })
    .optional(),
  commands: z.strictObject({ allow: z.array(z.string().min(1)) }).optional(),
  internet: z.strictObject({ tcp: z.array(HostPort) }).optional(),
  network: z.strictObject({ mode: z.enum(["proxy", "host"]) }).optional(),
  lan: z.strictObject({ hosts: z.array(z.string().min(1)) }).optional(),
  localhost: z.strictObject({ ports: z.array(z.number().int().min(1).max(65535)) }).optional(),
  browser: z.strictObject({ hosts: z.array(z.string().min(1)) }).optional(),
  tools: z.strictObject({ outside: z.array(z.string().min(1)) }).optional(),
});
export type NeedsSpec = z.infer<typeof NeedsSpec>;

/** Names a risk may not take: allow or deny would read them as grant flags (GRT-22). */
const FLAG_NAMES: readonly string[] = [...GRANT_FLAGS.multiple, ...GRANT_FLAGS.string];

/** A risk (GRT-21, GRT-22): a door no spec names, with why, and what the harness does without it. */
export const Risk = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,47}$/, "must be lowercase letters, digits and dashes")
    .refine((name) => !FLAG_NAMES.includes(name), "must not be the name of a grant flag"),
  why: z.string().min(1),
  /** Optional: only a yes in a terminal turns it on; `--yes` leaves it off. */
  optional: z.boolean().default(false),
  /** What the harness does without it (an optional risk's). */
  without: z.string().optional(),
});
export type Risk = z.infer<typeof Risk>;

/**
 * `needs` (ADP-12, GRT-15, GRT-16, GRT-21, GRT-22, GRT-24, U-41): a sandbox spec beyond the defaults, why each section is
 * needed in the harness's words (keyed by section, "paths" or "localhost"), whether the harness
 * keeps to its sandbox (`confined`), and its risks.
 */
export const NeedsAnswer = z.strictObject({
  spec: NeedsSpec.default({}),
  why: z.record(z.string(), z.string().min(1)).default({}),
  confined: z.boolean().default(true),
  risks: z.array(Risk).default([]),
}).superRefine((needs, ctx) => {
  for (const section of Object.keys(needs.spec)) {
    if (!needs.why[section]) {
      ctx.addIssue({ code: "custom", path: ["why", section], message: `says no why for "${section}"` });
    }
  }
});
export type NeedsAnswer = z.infer<typeof NeedsAnswer>;

/** `internet-hosts` (ADP-9, SBX-14): the hosts its installer and configure reach. */
export const InternetHostsAnswer = z.looseObject({ hosts: z.array(z.string().min(1)).default([]) });
/** `connections` (ADP-6): the connections the harness speaks itself. */
export const ConnectionsAnswer = z.looseObject({ connections: z.array(z.string().min(1)).default([]) });

/**
 * `endpoint` (ADP-7): where the harness answers ACP, either an HTTP endpoint on the loopback
 * (`port`), or ACP on stdio (`stdio`: the command, run inside the sandbox under Link's hub, which
 * serves it as the agent's endpoint; ARCHITECTURE.md section 6).
 */
export const EndpointAnswer = z.looseObject({
  port: z.number().int().min(1).max(65535).optional(),
  stdio: z.strictObject({
    command: z.array(z.string()).min(1).refine((words) => words[0] !== "", "must name a program first"),
    /** Variables the command is started with, besides the model's (docs/adapters.md). */
    env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string()).default({}),
  }).optional(),
}).refine(
  (e) => (e.port === undefined) !== (e.stdio === undefined),
  "must give exactly one of port and stdio",
);
export type EndpointAnswer = z.infer<typeof EndpointAnswer>;

/** `state` (ADP-10): the paths of the harness's home that are state, carried on a move. */
export const StateAnswer = z.looseObject({ paths: z.array(z.string().min(1)).default([]) });
/** `folders` (ADP-11): the agent's folders the harness writes. */
export const FoldersAnswer = z.looseObject({ writes: z.array(z.string().min(1)).default([]) });
/**
 * `configure` (ADP-1, ADP-2, ADP-13): whether it wrote anything, and the files it writes (relative
 * to the harness home), whose bytes the `.lnk/configured` hash covers so an edit reruns it.
 */
export const ConfigureAnswer = z.looseObject({
  changed: z.boolean().default(false),
  wrote: z.array(
    z.string().min(1).refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), {
      message: 'must be a path inside the harness home: no leading "/" or ".."',
    }),
  ).default([]),
});
/** `install`: the release installed, and whether it changed. */
export const InstallAnswer = z.looseObject({
  version: z.string().optional(),
  changed: z.boolean().default(false),
});
/** `link` (ADP-15): a setup step behind a proxy reaching any host; nothing to answer. */
export const LinkAnswer = z.looseObject({});
/** `health` (SBX-13, U-40): whether the harness answers, and what it said. */
export const HealthAnswer = z.looseObject({ ok: z.boolean(), detail: z.string().optional() });

/** Each command's answer schema. */
export const ANSWERS = {
  "contract": ContractAnswer,
  "needs": NeedsAnswer,
  "internet-hosts": InternetHostsAnswer,
  "connections": ConnectionsAnswer,
  "endpoint": EndpointAnswer,
  "state": StateAnswer,
  "folders": FoldersAnswer,
  "configure": ConfigureAnswer,
  "install": InstallAnswer,
  "link": LinkAnswer,
  "health": HealthAnswer,
} as const satisfies Record<AdapterCommand, z.ZodType>;

/** A command's answer, as its schema reads it. */
export type AdapterAnswer<C extends AdapterCommand> = z.infer<(typeof ANSWERS)[C]>;

/**
 * What an adapter is handed on stdin, one JSON line: the agent as its settings say, without keys
 * or tokens (GRT-15), the risks allowed and whether its harness runs behind Link's proxy (ADP-13,
 * GRT-23), and the harness's own settings kept for the agent (the acp adapter's command).
 */
export const AdapterInput = z.strictObject({
  agent: z.strictObject({
    id: z.string(),
    name: z.string(),
    harness: z.string(),
    ports: z.strictObject({ endpoint: z.number().int(), block: z.number().int() }),
    settings: z.record(z.string(), z.unknown()).default({}),
  }).optional(),
  allowed: z.array(z.string()).default([]),
  proxied: z.boolean().default(true),
  /** The harness's install folder, `~/.lnk/installs/<harness>` (absolute), for an outside harness. */
  install: z.string().optional(),
  /** The agent's model as the sandbox reaches it, for configure: never a key. */
  model: z.strictObject({ baseUrl: z.string(), model: z.string() }).optional(),
});
export type AdapterInput = z.input<typeof AdapterInput>;

/** The grant flags (`lnk agent allow`'s) a need's spec stands for (GRT-16). */
export function needsFlags(spec: NeedsSpec): Record<string, string[] | string> {
  const flags: Record<string, string[] | string> = {};
  const add = (flag: string, values: readonly (string | number)[] | undefined) => {
    if (values?.length) flags[flag] = [...(flags[flag] as string[] ?? []), ...values.map(String)];
  };
  if (spec.files) add("files", Object.entries(spec.files).map(([folder, access]) => `${folder}=${access}`));
  add("read", spec.paths?.read);
  add("write", spec.paths?.write);
  add("command", spec.commands?.allow);
  add("tcp", spec.internet?.tcp);
  add("lan-host", spec.lan?.hosts);
  add("port", spec.localhost?.ports);
  add("browser-host", spec.browser?.hosts);
  add("tool", spec.tools?.outside);
  if (spec.network?.mode === "host") flags["network-mode"] = "host";
  return flags;
}

/** A need's spec said as `lnk agent allow` flags, one line: `--read /opt/x --port 9000`. */
export function needsLine(spec: NeedsSpec): string {
  return Object.entries(needsFlags(spec)).flatMap(([flag, values]) =>
    (Array.isArray(values) ? values : [values]).map((v) => `--${flag} ${v}`)
  ).join(" ");
}
