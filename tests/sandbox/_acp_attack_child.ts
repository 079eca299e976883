/**
 * A stdio ACP agent that attacks (tests/sandbox/attacks_hub_test.ts): run under the hub with all of
 * Deno's permissions, so only the sandbox and the hub's Landlock domain stand in its way. Each
 * prompt is a JSON list of paths to try besides the hub's own process (a folder listed, a .toml
 * file read); it answers one line per try,
 * "<what>: open" or "<what>: denied".
 */
const out = (msg: unknown) => Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(msg)}\n`));

function attempt(what: string, fn: () => unknown): string {
  try {
    fn();
    return `${what}: open`;
  } catch {
    return `${what}: denied`;
  }
}

function attacks(paths: string[]): string {
  const hub = Deno.ppid;
  const tries = [
    attempt("the hub's memory", () => Deno.openSync(`/proc/${hub}/mem`).close()),
    attempt("the hub's environment", () => Deno.readTextFileSync(`/proc/${hub}/environ`)),
    attempt("the hub's stdin (the key)", () => Deno.readTextFileSync(`/proc/${hub}/fd/0`)),
    attempt("a signal to the hub", () => Deno.kill(hub, "SIGSTOP")),
    attempt("the sandbox's pid 1", () => Deno.readTextFileSync("/proc/1/environ")),
    ...paths.map((path) =>
      attempt(
        path,
        () => (path.endsWith(".toml") ? Deno.readTextFileSync(path) : Deno.readDirSync(path).next()),
      )
    ),
  ];
  return tries.join("\n");
}

let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  let at: number;
  while ((at = buffer.indexOf("\n")) >= 0) {
    const { id, method, params } = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (method === "initialize") {
      out({ jsonrpc: "2.0", id, result: { protocolVersion: 1, agentCapabilities: {} } });
    } else if (method === "session/new") {
      out({ jsonrpc: "2.0", id, result: { sessionId: crypto.randomUUID() } });
    } else if (method === "session/prompt") {
      const text = params.prompt.map((p: { text?: string }) => p.text ?? "").join("");
      const update = {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: attacks(JSON.parse(text)) },
      };
      out({ jsonrpc: "2.0", method: "session/update", params: { sessionId: params.sessionId, update } });
      out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
    } else if (id !== undefined) {
      out({ jsonrpc: "2.0", id, error: { code: -32601, message: `no ${method}` } });
    }
  }
}
