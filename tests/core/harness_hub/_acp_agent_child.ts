/**
 * A tiny stdio ACP agent, for the hub's tests: raw JSON-RPC lines, no SDK. It answers each prompt
 * "echo(<n>): <text>", n counting the prompts of that session, kept in $ACP_SESSIONS so a session
 * loads again in a later run (loadSession). Some messages make it misbehave: "die" exits 3 saying
 * why on stderr, "garbage" prints a line that is not JSON, "hang" never answers, "ask" asks a
 * permission first and says which option it got, "env" says its environment, "model: <text>" asks its model (the
 * OpenAI-compatible variables the hub hands it) and adds its answer. $ACP_START=hang never answers initialize.
 */
const file = Deno.env.get("ACP_SESSIONS") ?? "";
const sessions: Record<string, number> = file
  ? JSON.parse(await Deno.readTextFile(file).catch(() => "{}"))
  : {};
const save = () => file && Deno.writeTextFileSync(file, JSON.stringify(sessions));
const out = (msg: unknown) => Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(msg)}\n`));
const pending = new Map<number, (result: unknown) => void>();
let nextId = 1000;
let signedIn = false;
const ask = (method: string, params: unknown) =>
  new Promise<unknown>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    out({ jsonrpc: "2.0", id, method, params });
  });

const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let at: number;
  while ((at = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim()) void handle(JSON.parse(line));
  }
}

async function handle(
  msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown },
) {
  if (msg.method === undefined && msg.id !== undefined) return pending.get(msg.id)?.(msg.result);
  const { id, method, params = {} } = msg;
  if (method === "initialize") {
    if (Deno.env.get("ACP_START") === "hang") return;
    // $ACP_NEEDS_AUTH: it answers nothing before a sign-in with its variable, as Codex does.
    const authMethods = Deno.env.get("ACP_NEEDS_AUTH")
      ? [{ type: "env_var", id: "openai-api-key", name: "key", vars: [{ name: "OPENAI_API_KEY" }] }]
      : [];
    return out({
      jsonrpc: "2.0",
      id,
      result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods },
    });
  }
  if (method === "authenticate") {
    signedIn = params.methodId === "openai-api-key" && Deno.env.get("OPENAI_API_KEY") !== undefined;
    return out({ jsonrpc: "2.0", id, result: {} });
  }
  if (Deno.env.get("ACP_NEEDS_AUTH") && !signedIn && method?.startsWith("session/")) {
    return out({ jsonrpc: "2.0", id, error: { code: -32000, message: "Authentication required" } });
  }
  if (method === "session/new") {
    const sessionId = crypto.randomUUID();
    sessions[sessionId] = 0;
    save();
    return out({ jsonrpc: "2.0", id, result: { sessionId } });
  }
  if (method === "session/load") {
    const sessionId = String(params.sessionId);
    if (!(sessionId in sessions)) {
      return out({ jsonrpc: "2.0", id, error: { code: -32002, message: "no such session" } });
    }
    // A load replays the session's history as updates before its answer.
    out({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: replay() } });
    return out({ jsonrpc: "2.0", id, result: {} });
  }
  if (method === "session/prompt") {
    const sessionId = String(params.sessionId);
    const text = (params.prompt as { text?: string }[]).map((p) => p.text ?? "").join("");
    if (text === "die") {
      Deno.stderr.writeSync(new TextEncoder().encode("dying on purpose\n"));
      Deno.exit(3);
    }
    if (text === "garbage") return Deno.stdout.writeSync(new TextEncoder().encode("this is not ACP\n"));
    if (text === "hang") return;
    let said = "";
    if (text.startsWith("model: ")) {
      // Its model, as the hub hands it: the OpenAI-compatible variables.
      const res = await fetch(`${Deno.env.get("OPENAI_BASE_URL")}/chat/completions`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${Deno.env.get("OPENAI_API_KEY")}`,
        },
        body: JSON.stringify({
          model: Deno.env.get("OPENAI_MODEL"),
          messages: [{ role: "user", content: text.slice(7) }],
        }),
      });
      const body = await res.json() as { choices: { message: { content: string } }[] };
      said = ` -> ${body.choices[0]?.message.content}`;
    }
    if (text === "env") said = ` ${JSON.stringify(Deno.env.toObject())}`;
    if (text === "ask") {
      const answer = await ask("session/request_permission", {
        sessionId,
        toolCall: { toolCallId: "t1", title: "write a file" },
        options: [
          { optionId: "no", name: "Reject", kind: "reject_once" },
          { optionId: "yes", name: "Allow", kind: "allow_once" },
        ],
      }) as { outcome: { optionId?: string } };
      said = ` (permission: ${answer.outcome.optionId})`;
    }
    sessions[sessionId] = (sessions[sessionId] ?? 0) + 1;
    save();
    const chunk = (t: string) => ({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
      },
    });
    out(chunk(`echo(${sessions[sessionId]}): `));
    out(chunk(`${text}${said}`));
    return out({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
  }
  if (method === "session/cancel") return;
  out({ jsonrpc: "2.0", id, error: { code: -32601, message: `no ${method}` } });
}

function replay() {
  return { sessionUpdate: "user_message_chunk", content: { type: "text", text: "(history)" } };
}
