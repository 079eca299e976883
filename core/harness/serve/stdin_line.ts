/**
 * Reads the first line of stdin, how `lnk harness serve` is handed its agents and keys (never in
 * argv). The harness's own, not the mini harness's: that module builds zod schemas as it loads,
 * which would put zod's first, slowest schemas before the ready line (PRC-13).
 */
export async function readStdinLine(): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of Deno.stdin.readable) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0] ?? "";
}
