import { closeFd, fdPath, openEntry, statFd } from "../../sandbox/mod.ts";
import { DESCRIBED_BY, firstDescriptionLine } from "../harness/prompt/mod.ts";

/** How much of a description file is read: its first line is near its top, whatever its size. */
const HEAD_BYTES = 64 * 1024;

/**
 * A skill's description as Link Harness lists it (its SKILL.md's `description:`, else README.md's
 * first line), read through the skill's folder open at `folder` without following a link, and no
 * more than its first 64 KiB: undefined when the folder holds neither as a regular file.
 */
export function describeSkill(folder: number): string | undefined {
  for (const name of DESCRIBED_BY) {
    const fd = openEntry(folder, name);
    if (fd === undefined) continue;
    try {
      if (statFd(fd).type !== "file") continue;
      return firstDescriptionLine(readHead(fd));
    } finally {
      closeFd(fd);
    }
  }
  return undefined;
}

function readHead(fd: number): string {
  using file = Deno.openSync(fdPath(fd), { read: true });
  const buf = new Uint8Array(HEAD_BYTES);
  let got = 0;
  while (got < buf.length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null || n === 0) break;
    got += n;
  }
  return new TextDecoder().decode(buf.subarray(0, got));
}
