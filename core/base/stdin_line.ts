/** Reads the first line of stdin: how a role is handed its agents and keys, never in argv. */
export async function readStdinLine(): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of Deno.stdin.readable) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0] ?? "";
}
