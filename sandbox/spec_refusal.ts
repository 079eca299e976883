import { lineOfKey, LinkError } from "../core/base/mod.ts";

/** Where a spec came from, so a refusal can name its file and line (GRT-5). */
export interface SpecSource {
  readonly path: string;
  readonly text: string;
}

/**
 * A grant this sandbox cannot enforce, refused rather than silently not holding (GRT-5): names the
 * file and the line of the key, or says it came from the command line when the file lacks it.
 */
export function specRefusal(
  source: SpecSource | undefined,
  key: readonly PropertyKey[],
  what: string,
  hint?: string,
): LinkError {
  const line = source ? lineOf(source.text, key) : undefined;
  const where = whereOf(source, key);
  return new LinkError("SANDBOX_REFUSED", `Cannot start the sandbox: ${where}: ${what}`, {
    hint: hint ??
      (source && line !== undefined
        ? `Change line ${line} of "${source.path}" (or use \`lnk agent deny\`), then start again`
        : "Take that grant away, then start again"),
  });
}

/** Where a grant is: `"<file>" line <n>`, or the command line when the file lacks it. */
export function whereOf(source: SpecSource | undefined, key: readonly PropertyKey[]): string {
  const line = source ? lineOf(source.text, key) : undefined;
  return source && line !== undefined
    ? `"${source.path}" line ${line}`
    : `the grant ${key.map(String).join(".")} (from the command line)`;
}

/** The line of a key, or of the nearest key above it (an array's own line for one of its items). */
function lineOf(text: string, key: readonly PropertyKey[]): number | undefined {
  for (let n = key.length; n > 0; n--) {
    const line = lineOfKey(text, key.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}
