import { LinkError } from "./errors.ts";
import { CHECKOUT_DIR } from "./checkout.ts";

/** The command that fills Deno's cache with exactly what deno.lock pins, from this checkout. */
export const REPAIR_HINT =
  `Run \`deno task install-lnk\` in ${CHECKOUT_DIR}: it caches exactly what deno.lock pins`;

// Deno's own words when a program cannot load, before any of Link's code runs (colour stripped).
const WHAT_FAILED: { pattern: RegExp; says: (m: RegExpMatchArray) => string }[] = [
  {
    pattern: /Failed caching npm package '([^']+)'/,
    says: (m) => `Deno's cache lacks the npm package ${m[1]} that deno.lock pins`,
  },
  {
    pattern: /npm package not found in cache: "([^"]+)"/,
    says: (m) => `Deno's cache lacks the npm package "${m[1]}" that deno.lock pins`,
  },
  {
    pattern: /Specifier not found in cache: "([^"]+)"/,
    says: (m) => `Deno's cache lacks ${m[1]}`,
  },
  {
    pattern: /lockfile is out of date/i,
    says: () => "deno.json asks for packages deno.lock does not pin (the lockfile is out of date)",
  },
  {
    pattern: /Module not found "([^"]+)"/,
    says: (m) => `a module of Link's is missing: ${m[1]}`,
  },
];

/**
 * What Deno said when a role could not load its modules (a package not in the cache, a lock that
 * disagrees, a file gone), as a Link error naming what is missing and the command that repairs it;
 * undefined when `said` shows no such failure.
 */
export function moduleLoadFailure(roleArgs: readonly string[], said: string): LinkError | undefined {
  // deno-lint-ignore no-control-regex
  const text = said.replace(/\x1b\[[0-9;]*m/g, "");
  for (const { pattern, says } of WHAT_FAILED) {
    const found = text.match(pattern);
    if (!found) continue;
    return new LinkError("SERVICE_FAILED", `Cannot start "${roleArgs.join(" ")}": ${says(found)}`, {
      hint: REPAIR_HINT,
    });
  }
  return undefined;
}
