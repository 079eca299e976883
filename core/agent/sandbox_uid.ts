import { z } from "zod";
import { atomicWrite, joinPath, LinkError, type LinkPaths, lockFile, readTextIfExists } from "../base/mod.ts";
import { RUN_IDENTITY, runsAsRoot, SANDBOX_UIDS, type SandboxIdentity } from "../spec/mod.ts";

/** Which holder has which uid: an agent by ID, an owner's shared harness as `shared:<owner>`. */
const UidRecord = z.record(z.string(), z.number().int());

/** The record of every sandbox uid this machine has given: `~/.lnk/agents/.uids.json`. */
function recordPath(paths: LinkPaths): string {
  return joinPath(paths.agentsState, ".uids.json");
}

/**
 * The unprivileged uid (and gid) a holder's sandboxes run as when Link runs as root (SBX-1):
 * given at the first ask from Link's range, recorded, and never given to another holder again,
 * even after the agent is removed (its files, kept aside, are still that uid's). Undefined when
 * Link runs as a person, whose sandboxes are that person.
 */
export async function sandboxIdentity(
  paths: LinkPaths,
  holder: string,
): Promise<SandboxIdentity | undefined> {
  if (!runsAsRoot()) return undefined;
  const known = (await readRecord(paths))[holder];
  if (known !== undefined) return { uid: known, gid: known };
  await Deno.mkdir(paths.agentsState, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(`${recordPath(paths)}.lock`);
  const record = await readRecord(paths);
  const again = record[holder];
  if (again !== undefined) return { uid: again, gid: again };
  const uid = freeUid(new Set(Object.values(record)), await systemIds());
  await atomicWrite(recordPath(paths), `${JSON.stringify({ ...record, [holder]: uid }, null, 2)}\n`, {
    mode: 0o600,
  });
  return { uid, gid: uid };
}

/** The holder of an owner's shared harness, whose one sandbox serves all its agents. */
export function sharedHolder(owner: string): string {
  return `shared:${owner}`;
}

async function readRecord(paths: LinkPaths): Promise<Record<string, number>> {
  const text = await readTextIfExists(recordPath(paths));
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw unreadable(paths, err);
  }
  const result = UidRecord.safeParse(parsed);
  if (!result.success) throw unreadable(paths, result.error);
  return result.data;
}

function unreadable(paths: LinkPaths, cause: unknown): LinkError {
  return new LinkError(
    "CONFIG_INVALID",
    `Cannot read "${recordPath(paths)}": it is not Link's record of uids`,
    {
      hint: "Restore it from a backup: it says which uid owns each agent's files",
      cause,
    },
  );
}

/** The lowest uid of the range not given and not a user or group of this system. */
function freeUid(given: Set<number>, system: Set<number>): number {
  for (let uid = SANDBOX_UIDS.first; uid < RUN_IDENTITY.uid; uid++) {
    if (!given.has(uid) && !system.has(uid)) return uid;
  }
  throw new LinkError(
    "SANDBOX_UNAVAILABLE",
    "Cannot give the sandbox a uid of its own: every uid of Link's range is given",
    {
      hint: "Remove agents this machine no longer needs",
    },
  );
}

/** The uids and gids /etc/passwd and /etc/group name. */
async function systemIds(): Promise<Set<number>> {
  const ids = new Set<number>();
  for (const file of ["/etc/passwd", "/etc/group"]) {
    const text = (await readTextIfExists(file)) ?? "";
    for (const line of text.split("\n")) {
      const id = Number(line.split(":")[2]);
      if (Number.isInteger(id)) ids.add(id);
    }
  }
  return ids;
}
