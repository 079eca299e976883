import { dirname } from "node:path";
import { z } from "zod";
import {
  atomicWrite,
  LinkError,
  type LinkPaths,
  parseToml,
  readTextIfExists,
  stringifyToml,
  validateToml,
} from "../base/mod.ts";

/** This machine's settings (`~/.lnk/machine.toml`). */
export const MachineToml = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{8,64}$/).optional(),
  name: z.string().min(1).optional(),
  shared_harness: z.boolean().default(false),
  shared_bridge: z.boolean().default(false),
  keep_moved: z.string().regex(/^(\d+[dh]|never)$/, 'must be like "30d", "12h" or "never"').default("30d"),
  /** false refuses every way of running an agent unsandboxed (GRT-9). */
  unsandboxed: z.boolean().default(true),
});
export type MachineToml = z.infer<typeof MachineToml>;

/** The machine's settings, with its ID and name always present. */
export type Machine = MachineToml & { id: string; name: string };

/**
 * Reads machine.toml, refusing it unless only you or root could have written it (GRT-11, U-30),
 * and adds the machine's ID and name the first time, keeping whatever the file held.
 */
export async function loadMachine(paths: LinkPaths): Promise<Machine> {
  const path = paths.machineToml;
  const text = await readTextIfExists(path);
  if (text !== undefined) await checkOwnership(path, paths.home);
  const parsed = validateToml(MachineToml, text ?? "", path, "Fix these machine settings");
  if (parsed.id && parsed.name) return parsed as Machine;
  const raw = text === undefined ? {} : parseToml(text, path);
  const id = parsed.id ?? newMachineId();
  const name = parsed.name ?? Deno.hostname();
  const header = text === undefined
    ? "# This machine's settings for Link. No sandbox ever sees this file.\n"
    : "";
  const kept = text === undefined ? "" : `${text.trimEnd()}\n`;
  const added = stringifyToml(Object.fromEntries(Object.entries({ id, name }).filter(([k]) => !(k in raw))));
  // Prepend the ID and name so they sit above any table the person wrote.
  await atomicWrite(path, `${header}${added}\n${kept}`, { mode: 0o600 });
  return { ...parsed, id, name };
}

function newMachineId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** Like ssh's StrictModes: the file and each folder above it are yours or root's, writable by no one else. */
async function checkOwnership(path: string, home: string): Promise<void> {
  const uid = Deno.uid();
  let current = path;
  while (true) {
    const info = await Deno.stat(current);
    const mode = info.mode ?? 0;
    const owner = info.uid;
    const sticky = (mode & 0o1000) !== 0 && current !== path;
    if ((owner !== uid && owner !== 0) || ((mode & 0o022) !== 0 && !sticky)) {
      throw new LinkError(
        "CONFIG_INVALID",
        `Cannot trust "${path}": "${current}" could be written by another user`,
        {
          hint: `Make it yours alone, such as \`chmod go-w "${current}"\`, then run the command again`,
        },
      );
    }
    const parent = dirname(current);
    if (parent === current || current === dirname(home)) return;
    current = parent;
  }
}
