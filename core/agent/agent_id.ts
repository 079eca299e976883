import { LinkError, type LinkPaths } from "../base/mod.ts";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A new agent ID: 128 random bits, base32 lowercase (U-8), never given before on this machine. */
export async function issueAgentId(paths: LinkPaths): Promise<string> {
  await Deno.mkdir(paths.agentsState, { recursive: true, mode: 0o700 });
  const issued = new Set(await readIssued(paths));
  let id: string;
  do id = randomId(); while (issued.has(id));
  await Deno.writeTextFile(paths.issuedIds, `${id}\n`, { append: true, mode: 0o600 });
  return id;
}

/** Notes an ID as given (a restored or received agent), so it is never issued again. */
export async function noteIssuedId(paths: LinkPaths, id: string): Promise<void> {
  await Deno.mkdir(paths.agentsState, { recursive: true, mode: 0o700 });
  if ((await readIssued(paths)).includes(id)) return;
  await Deno.writeTextFile(paths.issuedIds, `${id}\n`, { append: true, mode: 0o600 });
}

async function readIssued(paths: LinkPaths): Promise<string[]> {
  try {
    return (await Deno.readTextFile(paths.issuedIds)).split("\n").filter(Boolean);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Refuses a name that is empty, too long, or unsafe as a folder name. */
export function checkAgentName(name: string): void {
  if (NAME.test(name)) return;
  const why = name === ""
    ? "it is empty"
    : name.length > 64
    ? "it is longer than 64 characters"
    : "it has characters a folder name cannot safely hold";
  throw new LinkError("USAGE", `Cannot use "${name}" as an agent's name: ${why}`, {
    hint: "Use letters, digits, - and _, starting with a letter or digit, such as `work` or `helper-2`",
  });
}
