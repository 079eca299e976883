import { LinkError } from "../../base/mod.ts";

/**
 * The files driver keeps a conversation in a folder named after its id, reversibly and safely on
 * any file system, including case-insensitive ones:
 *
 * - `a`-`z`, `0`-`9`, `_`, `-` and `.` stay as they are, except a leading `.`;
 * - an uppercase `A`-`Z` becomes `^` and its lowercase letter (`C0AB` -> `^c0^a^b`);
 * - `:` becomes `+` (`link:main` -> `link+main`, `telegram:-1001` -> `telegram+-1001`);
 * - every other UTF-8 byte, and a leading `.`, becomes `%` and two uppercase hex digits
 *   (`slack:T1/C2` -> `slack+^t1%2F^c2`, `.x` -> `%2Ex`).
 *
 * So no name is empty, `.` or `..`, holds a `/`, or differs from another by case only.
 */
const MAX_NAME_BYTES = 255;

const KEPT = /^[a-z0-9_.-]$/;
const UPPER = /^[A-Z]$/;

/** The folder name of a conversation id; throws USAGE for an empty id or a name too long for a file system. */
export function conversationFolder(conversation: string): string {
  if (conversation.length === 0) {
    throw new LinkError("USAGE", "Cannot store a conversation without an id");
  }
  let name = "";
  for (const byte of new TextEncoder().encode(conversation)) {
    const char = String.fromCharCode(byte);
    if (KEPT.test(char) && !(name === "" && char === ".")) name += char;
    else if (UPPER.test(char)) name += `^${char.toLowerCase()}`;
    else if (char === ":") name += "+";
    else name += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (name.length > MAX_NAME_BYTES) {
    throw new LinkError(
      "USAGE",
      `Cannot store conversation "${conversation}": its id is too long for a folder name`,
      {
        hint: `Use a conversation id whose folder name stays within ${MAX_NAME_BYTES} bytes`,
      },
    );
  }
  return name;
}

/** The conversation id a folder name stands for, or undefined when the name is not one this encoding makes. */
export function conversationFromFolder(name: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const char = name[i]!;
    if (char === "+") bytes.push(0x3a);
    else if (char === "^") {
      const next = name[++i];
      if (next === undefined || !/^[a-z]$/.test(next)) return undefined;
      bytes.push(next.toUpperCase().charCodeAt(0));
    } else if (char === "%") {
      const hex = name.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (KEPT.test(char)) bytes.push(char.charCodeAt(0));
    else return undefined;
  }
  let conversation: string;
  try {
    conversation = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
  // Only the one name this encoding makes counts, so a stray folder never shadows a conversation.
  return conversationFolderOrUndefined(conversation) === name ? conversation : undefined;
}

function conversationFolderOrUndefined(conversation: string): string | undefined {
  try {
    return conversationFolder(conversation);
  } catch {
    return undefined;
  }
}
