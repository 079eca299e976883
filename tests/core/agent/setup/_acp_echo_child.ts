/** The smallest stdio ACP agent, the stand-in adapter's endpoint: it answers each prompt "echo: <text>". */
const out = (msg: unknown) => Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(msg)}\n`));
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
        content: { type: "text", text: `echo: ${text}` },
      };
      out({ jsonrpc: "2.0", method: "session/update", params: { sessionId: params.sessionId, update } });
      out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
    } else if (id !== undefined) {
      out({ jsonrpc: "2.0", id, error: { code: -32601, message: `no ${method}` } });
    }
  }
}
