// deno-lint-ignore-file no-console -- the output writer of cmd/ is the one place that prints (STYLE.md section 5).
import { homeFrom } from "../core/base/mod.ts";
import type { Io } from "./command.ts";

const encoder = new TextEncoder();

/** The Io of a real terminal: the one place, with log.ts, that writes to the console. */
export function terminalIo(): Io {
  const controller = new AbortController();
  let interrupts = 0;
  try {
    Deno.addSignalListener("SIGINT", () => {
      interrupts++;
      if (interrupts > 1) Deno.exit(130);
      controller.abort(new Error("interrupted"));
    });
  } catch { /* no signals here */ }
  let buffer = "";
  let reader: ReadableStreamDefaultReader<string> | undefined;
  const readLine = async (): Promise<string | undefined> => {
    // Made at the first read, never before: a pipe starts reading stdin at once, which would take
    // the input of a program this command runs with the terminal's stdin.
    reader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
    while (!buffer.includes("\n")) {
      const chunk = await reader.read();
      if (chunk.done) {
        const last = buffer;
        buffer = "";
        return last === "" ? undefined : last;
      }
      buffer += chunk.value;
    }
    const nl = buffer.indexOf("\n");
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    return line;
  };
  const isTerminal = Deno.stdin.isTerminal();
  return {
    env: Deno.env,
    home: homeFrom(Deno.env),
    isTerminal,
    signal: controller.signal,
    print: (value) => console.log(typeof value === "string" ? value : JSON.stringify(value)),
    write: (text) => Deno.stdout.writeSync(encoder.encode(text)),
    note: (text) => console.error(text),
    async ask(question) {
      if (!isTerminal) return undefined;
      Deno.stderr.writeSync(encoder.encode(`${question} `));
      return await readLine();
    },
    readLine,
  };
}
