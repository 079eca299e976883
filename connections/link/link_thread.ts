import { LinkError } from "../../core/base/mod.ts";

/** The `link` connection's name: threads are `link:<name>` (LOC-1). */
export const LINK_CONNECTION = "link";
/** The thread a chat uses unless it names one. */
export const DEFAULT_THREAD = "main";

/** The thread key of a `link` thread: `link:main` unless named (LOC-1). */
export function linkThread(name: string = DEFAULT_THREAD): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new LinkError("USAGE", `Cannot use the thread name "${name}": it is not a simple name`, {
      hint: "Name a thread with letters, digits, dots, dashes and underscores, such as --thread work",
    });
  }
  return `${LINK_CONNECTION}:${name}`;
}
