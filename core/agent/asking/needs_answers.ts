import { atomicWrite, type LinkPaths, parseToml, readTextIfExists, stringifyToml } from "../../base/mod.ts";
import { type NeedsAnswer, needsFlags } from "../../adapters/mod.ts";

/** One answer: a need granted or refused, kept until `lnk agent harness reset` (GRT-19). */
export type Answer = "allow" | "deny";

/** A need as asked: its `lnk agent allow` flag and value, and the section its why is under. */
export interface Need {
  readonly flag: string;
  readonly value: string;
}

/** The answers kept in a harness's layer file: needs by their flag line, risks by name. */
export interface KeptAnswers {
  readonly needs: Readonly<Record<string, Answer>>;
  readonly risks: Readonly<Record<string, Answer>>;
}

/** A need's key in the answers: its flag line, as `lnk agent allow` takes it. */
export function needKey(need: Need): string {
  return `--${need.flag} ${need.value}`;
}

/** The needs of an adapter's answer, one per flag value. */
export function needsOf(needs: NeedsAnswer | undefined): Need[] {
  if (!needs) return [];
  return Object.entries(needsFlags(needs.spec)).flatMap(([flag, values]) =>
    (Array.isArray(values) ? values : [values]).map((value) => ({ flag, value }))
  );
}

/** The flag a spec section's need is written as, for its why (`paths` for --read, `localhost` for --port). */
export function sectionOf(flag: string): string {
  return ({
    files: "files",
    read: "paths",
    write: "paths",
    command: "commands",
    tcp: "internet",
    "lan-host": "lan",
    port: "localhost",
    "browser-host": "browser",
    "network-mode": "network",
    tool: "tools",
  } as Record<string, string>)[flag] ?? flag;
}

/** The risks allowed among the answers, handed to the adapter as `allowed` (ADP-13, GRT-21). */
export function allowedRisks(kept: KeptAnswers): string[] {
  return Object.entries(kept.risks).filter(([, answer]) => answer === "allow").map(([name]) => name);
}

/** Reads the answers kept in `~/.lnk/harnesses/<harness>.toml` (its `[answers]` table); none when absent. */
export async function loadAnswers(paths: LinkPaths, harness: string): Promise<KeptAnswers> {
  const path = paths.harnessToml(harness);
  const text = await readTextIfExists(path);
  if (text === undefined) return { needs: {}, risks: {} };
  const raw = parseToml(text, path) as Record<string, unknown>;
  const answers = (raw.answers ?? {}) as Record<string, unknown>;
  const needs = pick(answers.needs);
  // A grant written by hand in the layer answers its need: it is not asked again (GRT-16, GRT-19).
  for (const key of grantedKeys(raw as Record<string, Record<string, unknown> | undefined>)) {
    needs[key] ??= "allow";
  }
  return { needs, risks: pick(answers.risks) };
}

/** The needs the layer's grant sections hold, as their flag lines. */
function grantedKeys(raw: Record<string, Record<string, unknown> | undefined>): string[] {
  const keys: string[] = [];
  for (const [flag, [section, key]] of Object.entries(PLACES)) {
    const list = raw[section]?.[key];
    if (Array.isArray(list)) { for (const value of list) keys.push(`--${flag} ${value}`); }
  }
  for (const [folder, access] of Object.entries(raw.files ?? {})) keys.push(`--files ${folder}=${access}`);
  if (raw.network?.mode === "host") keys.push("--network-mode host");
  return keys;
}

function pick(table: unknown): Record<string, Answer> {
  const out: Record<string, Answer> = {};
  if (typeof table !== "object" || table === null) return out;
  for (const [key, value] of Object.entries(table)) {
    if (value === "allow" || value === "deny") out[key] = value;
  }
  return out;
}

/** The grant section and key each flag is kept under in the layer (as loadHarnessLayer reads it). */
const PLACES: Record<string, [string, string]> = {
  read: ["paths", "read"],
  write: ["paths", "write"],
  tcp: ["internet", "tcp"],
  "lan-host": ["lan", "hosts"],
  command: ["commands", "allow"],
  tool: ["tools", "outside"],
  "browser-host": ["browser", "hosts"],
  port: ["localhost", "ports"],
};

/**
 * Writes a harness's layer from its answers (GRT-16, GRT-19): each need allowed as its grant
 * section, every answer (a deny too) in `[answers]`. The file's leading comments are kept; written
 * atomically, 0600. A need the adapter no longer declares keeps its answer (a deny stays a deny).
 */
export async function saveAnswers(
  paths: LinkPaths,
  harness: string,
  answers: KeptAnswers,
  needs: readonly Need[],
): Promise<void> {
  const path = paths.harnessToml(harness);
  const old = await readTextIfExists(path);
  const raw = old === undefined ? {} : parseToml(old, path) as Record<string, Record<string, unknown>>;
  const known = new Map<string, Need>();
  for (const need of needs) known.set(needKey(need), need);
  // Needs answered before and declared no longer are still read back from the key.
  for (const key of Object.keys(answers.needs)) if (!known.has(key)) known.set(key, parseKey(key));
  const out: Record<string, Record<string, unknown>> = {};
  // Other tables of the file (grants written by hand) stay; the flags asked are rewritten.
  for (const [section, table] of Object.entries(raw)) if (section !== "answers") out[section] = { ...table };
  for (const [key, need] of known) {
    const answer = answers.needs[key];
    if (answer === undefined) continue;
    place(out, need, answer === "allow");
  }
  for (const [section, table] of Object.entries(out)) if (!Object.keys(table).length) delete out[section];
  if (Object.keys(answers.needs).length || Object.keys(answers.risks).length) {
    out.answers = { needs: { ...answers.needs }, risks: { ...answers.risks } };
  }
  const comments = (old ?? "").split("\n").filter((line) => line.trimStart().startsWith("#"));
  const head = comments.length ? `${comments.join("\n")}\n\n` : "";
  await Deno.mkdir(paths.harnessToml(harness).replace(/\/[^/]*$/, ""), { recursive: true, mode: 0o700 });
  await atomicWrite(path, head + stringifyToml(out), { mode: 0o600 });
  await Deno.chmod(path, 0o600);
}

function parseKey(key: string): Need {
  const match = /^--([a-z-]+) (.*)$/.exec(key);
  return match ? { flag: match[1] ?? key, value: match[2] ?? "" } : { flag: key, value: "" };
}

function place(out: Record<string, Record<string, unknown>>, need: Need, allowed: boolean): void {
  if (need.flag === "files") {
    const [folder = "", access = ""] = need.value.split("=");
    const table = out.files ??= {};
    if (allowed) table[folder] = access;
    else if (table[folder] === access) delete table[folder];
    return;
  }
  if (need.flag === "network-mode") {
    const table = out.network ??= {};
    if (allowed) table.mode = need.value;
    else if (table.mode === need.value) delete table.mode;
    return;
  }
  const where = PLACES[need.flag];
  if (!where) return;
  const [section, key] = where;
  const table = out[section] ??= {};
  const value = need.flag === "port" ? Number(need.value) : need.value;
  const list = (Array.isArray(table[key]) ? table[key] as unknown[] : []).filter((v) =>
    String(v) !== need.value
  );
  if (allowed) list.push(value);
  if (list.length) table[key] = list;
  else delete table[key];
}
