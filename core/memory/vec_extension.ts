import { LinkError } from "../base/mod.ts";

let found: string | undefined;

/**
 * The path of sqlite-vec's loadable extension (`vec0.so`), resolved from its npm package inside
 * Deno's npm cache (the package resolves its platform package's file with `import.meta.resolve`).
 * Loaded at the first index opened, not at a start; read once a process.
 */
export async function vecExtensionPath(): Promise<string> {
  if (found) return found;
  try {
    const { getLoadablePath } = await import("sqlite-vec");
    found = getLoadablePath();
    return found;
  } catch (err) {
    throw new LinkError("UNSUPPORTED", "Cannot find sqlite-vec's extension for this machine", {
      hint: "Run `deno cache main.ts` in Link's checkout, so npm's sqlite-vec is in Deno's cache",
      cause: err,
    });
  }
}
