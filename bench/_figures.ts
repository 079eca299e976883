/** What the benchmarks share: a percentile of their times, and a line of output. */

/** The p-th percentile of `times` (nearest rank). */
export function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Prints one line of a benchmark's figures at once, unbuffered. */
export function line(text: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
}

/** The median of `times`, the upper one of an even count. */
export function p50(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
