import { getLoadablePath } from "sqlite-vec";
import { LinkError } from "../base/mod.ts";

let found: string | undefined;

/**
 * The path of sqlite-vec's loadable extension (`vec0.so`), resolved from its npm package inside
 * Deno's npm cache (the package resolves its platform package's file with `import.meta.resolve`).
 * Read once a process.
 */
export function vecExtensionPath(): string {
  if (found) return found;
  try {
    found = getLoadablePath();
    return found;
  } catch (err) {
    throw new LinkError("UNSUPPORTED", "Cannot find sqlite-vec's extension for this machine", {
      hint: "Run `deno cache main.ts` in Link's checkout, so npm's sqlite-vec is in Deno's cache",
      cause: err,
    });
  }
}
