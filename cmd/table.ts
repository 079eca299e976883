/** Lays out rows under headings in aligned columns. */
export function table(headings: string[], rows: string[][]): string {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(headings), ...rows.map(line)].join("\n");
}
