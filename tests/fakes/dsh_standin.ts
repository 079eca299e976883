/**
 * A stand-in for DeepSeek Harness's `dsh --profile acp`, for the tests of harness deepseek: the
 * real one cannot be installed from npm (its only release with an ACP profile, 0.1.5-rc.2, names
 * `@deepseek-ai/dsh-acp-app@^0.1.5-rc.2`, which is not published; the 0.1.0 releases have no ACP
 * profile). It speaks ACP as JSON-RPC lines on stdio (initialize, session/new, session/prompt,
 * session/cancel), reads the settings and credentials documents under $DSH_HOME as dsh does (the
 * default model's provider route: its base URL, model and key variable; the variable from the
 * environment over the credentials document), asks that model with that key for each prompt,
 * streamed, and streams the answer back as agent_message_chunk updates. It imports nothing, so it
 * runs inside the agent's sandbox from the install folder alone, on Deno.
 */
type Message = { role: "user" | "assistant"; content: string };
type Route = { baseURL: string; model: string; key: string };

const write = (msg: unknown) => Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(msg)}\n`));

if (Deno.args.join(" ") !== "--profile acp") {
  Deno.stderr.writeSync(
    new TextEncoder().encode(
      `dsh stand-in: only \`dsh --profile acp\` is served, not \`dsh ${Deno.args.join(" ")}\`\n`,
    ),
  );
  Deno.exit(2);
}
const dshHome = Deno.env.get("DSH_HOME") ?? `${Deno.env.get("HOME")}/.dsh`;

/** The default model's route, as dsh's settings and credentials documents say it. */
function route(): Route {
  const settings = JSON.parse(Deno.readTextFileSync(`${dshHome}/settings.yaml`));
  const selected = settings["agent-default-model"] ?? {};
  const profile = settings["llm-pi-ai"]?.providers?.[selected.provider];
  if (!profile?.baseURL || profile.api !== "openai-completions") {
    throw new Error(`settings.yaml has no openai-completions route "${selected.provider}"`);
  }
  const keyName = profile.apiKeyEnv as string;
  let key = Deno.env.get(keyName);
  if (key === undefined) {
    const credentials = (() => {
      try {
        return Deno.readTextFileSync(`${dshHome}/.credentials.yaml`);
      } catch {
        return "";
      }
    })();
    const line = credentials.split("\n").find((l) => l.startsWith(`${keyName}:`));
    key = line?.slice(keyName.length + 1).trim();
  }
  if (!key) throw new Error(`no credential for ${keyName}`);
  return { baseURL: profile.baseURL.replace(/\/+$/, ""), model: selected.model, key };
}

const sessions = new Map<string, Message[]>();
const cancels = new Map<string, AbortController>();

async function prompt(
  id: unknown,
  params: { sessionId: string; prompt: { text?: string }[] },
): Promise<void> {
  const history = sessions.get(params.sessionId);
  if (!history) {
    write({ jsonrpc: "2.0", id, error: { code: -32602, message: `no session ${params.sessionId}` } });
    return;
  }
  const abort = new AbortController();
  cancels.set(params.sessionId, abort);
  try {
    const to = route();
    history.push({ role: "user", content: params.prompt.map((p) => p.text ?? "").join("") });
    const res = await fetch(`${to.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${to.key}` },
      body: JSON.stringify({ model: to.model, messages: history, stream: true }),
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`the model answered ${res.status}: ${await res.text()}`);
    let answer = "";
    let buffer = "";
    for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at).trim();
        buffer = buffer.slice(at + 1);
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trim();
        if (data === "[DONE]") continue;
        const parsed = JSON.parse(data);
        if (parsed.error) throw new Error(`the model's stream failed: ${JSON.stringify(parsed.error)}`);
        const text = parsed.choices?.[0]?.delta?.content;
        if (typeof text !== "string" || text === "") continue;
        answer += text;
        const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
        write({ jsonrpc: "2.0", method: "session/update", params: { sessionId: params.sessionId, update } });
      }
    }
    history.push({ role: "assistant", content: answer });
    write({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
  } catch (err) {
    if (abort.signal.aborted) write({ jsonrpc: "2.0", id, result: { stopReason: "cancelled" } });
    else write({ jsonrpc: "2.0", id, error: { code: -32603, message: String(err) } });
  } finally {
    cancels.delete(params.sessionId);
  }
}

let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  let at: number;
  while ((at = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, at).trim();
    buffer = buffer.slice(at + 1);
    if (!line) continue;
    const { id, method, params } = JSON.parse(line);
    if (method === "initialize") {
      write({
        jsonrpc: "2.0",
        id,
        result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "dsh-standin" } },
      });
    } else if (method === "session/new") {
      const sessionId = crypto.randomUUID();
      sessions.set(sessionId, []);
      write({ jsonrpc: "2.0", id, result: { sessionId } });
    } else if (method === "session/prompt") {
      void prompt(id, params);
    } else if (method === "session/cancel") {
      cancels.get(params?.sessionId)?.abort();
    } else if (id !== undefined) {
      write({ jsonrpc: "2.0", id, error: { code: -32601, message: `no ${method}` } });
    }
  }
}
