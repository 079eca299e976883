/**
 * Reads the first line of stdin: how a role is handed its agents and keys, never in argv. Read
 * with Deno.stdin.read rather than its stream: the first stream of a process costs a woken
 * harness some 8 ms (PRC-13).
 */
export async function readStdinLine(): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let text = "";
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    text += decoder.decode(buffer.subarray(0, n), { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0] ?? "";
}
