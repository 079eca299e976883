import { LinkError } from "./errors.ts";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Reads a duration such as "10s", "5m", "250ms" or "1h30m" as milliseconds. */
export function parseDuration(text: string): number {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  const joined = parts.map((p) => p[0]).join("");
  if (parts.length === 0 || joined !== text.trim()) {
    throw new LinkError("CONFIG_INVALID", `Cannot read the duration "${text}"`, {
      hint: 'Write a number and a unit, such as "10s", "5m", "250ms" or "1h"',
    });
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2]!] ?? 0), 0);
}

/** A zod-friendly check: true when the text is a duration parseDuration reads. */
export function isDuration(text: string): boolean {
  try {
    parseDuration(text);
    return true;
  } catch {
    return false;
  }
}
