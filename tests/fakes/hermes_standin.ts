/**
 * A stand-in for Nous Research's `hermes` program, which cannot be installed here (its package
 * index is out of reach): `hermes acp` as a stdio ACP agent over the official ACP SDK. It reads
 * what Hermes reads, and nothing else: HERMES_HOME's config.yaml (its `model:` section's
 * `provider`, `base_url` and `default`) and .env (`OPENAI_API_KEY`), and answers each prompt by
 * asking that model at `<base_url>/chat/completions` with that key, streamed, sending the text back
 * as it comes. So a test through it proves that configure wrote what Hermes reads, and that the
 * model is reached from where Hermes runs (through Link's proxy, in a sandbox). Anything it
 * cannot do is an error on stderr and exit 1, as a real program's would be.
 */
import * as acp from "@agentclientprotocol/sdk";

const [command] = Deno.args;
if (command !== "acp") {
  Deno.stderr.writeSync(
    new TextEncoder().encode(`hermes stand-in: only \`hermes acp\` is here, not "${command}"\n`),
  );
  Deno.exit(2);
}

const home = Deno.env.get("HERMES_HOME") ?? `${Deno.env.get("HOME")}/.hermes`;

/** The nested maps of block-style YAML, as much of it as Hermes's config.yaml needs. */
function readYaml(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const stack: { indent: number; map: Record<string, unknown> }[] = [{ indent: -1, map: root }];
  for (const raw of text.split("\n")) {
    if (/^\s*(#.*)?$/.test(raw)) continue;
    const found = /^(\s*)([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(raw);
    if (!found) continue;
    const [, pad, key, rest] = found;
    while (stack.length > 1 && stack.at(-1)!.indent >= pad!.length) stack.pop();
    const parent = stack.at(-1)!.map;
    const value = rest!.replace(/\s+#.*$/, "").trim();
    if (value === "") {
      const map: Record<string, unknown> = {};
      parent[key!] = map;
      stack.push({ indent: pad!.length, map });
    } else if (value.startsWith('"')) parent[key!] = JSON.parse(value);
    else if (value.startsWith("'")) parent[key!] = value.slice(1, -1).replaceAll("''", "'");
    else if (/^-?\d+$/.test(value)) parent[key!] = Number(value);
    else if (value === "true" || value === "false") parent[key!] = value === "true";
    else parent[key!] = value;
  }
  return root;
}

/** The variables of a .env file. */
function readDotEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const found = /^\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*(.*)$/.exec(line);
    if (found) vars[found[1]!] = found[2]!.trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`hermes stand-in: ${message}\n`));
  Deno.exit(1);
}

const config = readYaml(
  await Deno.readTextFile(`${home}/config.yaml`).catch(() => fail(`no ${home}/config.yaml`)),
);
const dotEnv = readDotEnv(await Deno.readTextFile(`${home}/.env`).catch(() => fail(`no ${home}/.env`)));
const model = config.model as Record<string, unknown> | undefined;
if (model?.provider !== "custom" || typeof model.base_url !== "string" || typeof model.default !== "string") {
  fail("config.yaml names no custom provider with a base_url and a default model");
}
const key = dotEnv.OPENAI_API_KEY ?? fail(".env holds no OPENAI_API_KEY");
const baseUrl = model.base_url.replace(/\/$/, "");
const modelName = model.default;

/** Asks the model, calling `onText` with each piece of its answer as it streams in. */
async function ask(
  text: string,
  onText: (piece: string) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: modelName, stream: true, messages: [{ role: "user", content: text }] }),
    signal,
  });
  if (!res.ok || !res.body) throw new Error(`the model answered ${res.status}: ${await res.text()}`);
  if (!(res.headers.get("content-type") ?? "").includes("event-stream")) {
    const body = await res.json() as { choices?: { message?: { content?: string } }[] };
    await onText(body.choices?.[0]?.message?.content ?? "");
    return;
  }
  let buffer = "";
  for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("data:") || line === "data: [DONE]") continue;
      const event = JSON.parse(line.slice(5)) as { choices?: { delta?: { content?: string } }[] };
      const piece = event.choices?.[0]?.delta?.content;
      if (piece) await onText(piece);
    }
  }
}

const app = acp.agent({ name: "hermes-standin" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: crypto.randomUUID() }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    try {
      await ask(text, (piece) =>
        client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: piece } },
        }), signal);
    } catch (err) {
      // As Hermes logs a failed turn on stderr: the agent's log.
      Deno.stderr.writeSync(new TextEncoder().encode(`hermes stand-in: the turn failed: ${err}\n`));
      throw err;
    }
    return { stopReason: "end_turn" };
  });

const stdout = new WritableStream<Uint8Array>({ write: (chunk) => Deno.stdout.write(chunk).then(() => {}) });
const connection = app.connect(acp.ndJsonStream(stdout, Deno.stdin.readable));
await connection.closed;
