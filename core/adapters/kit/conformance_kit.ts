import { type AgentKey, isLinkError, makeProof, newAgentKey } from "../../base/mod.ts";
import {
  type AskCaller,
  type EndpointAddress,
  Http1Connection,
  openEndpoint,
  PROOF_PATH,
  readText,
  type SessionUpdate,
} from "../../../connections/mod.ts";
import { type Adapter, answers, askAdapter, askContract, type Env } from "../ask_adapter.ts";
import type { AdapterInput, ContractAnswer } from "../contract.ts";

/** One check of the kit: what it checks, whether it held, and what it saw. */
export interface KitRow {
  readonly check: string;
  /** "skipped" when the adapter does not say it has what the check is of. */
  readonly result: "pass" | "fail" | "skipped";
  readonly detail: string;
}

/** What the kit runs against: an adapter, and its agent running with its endpoint. */
export interface KitTarget {
  readonly adapter: Adapter;
  readonly input: AdapterInput;
  readonly env: Env;
  readonly endpoint: EndpointAddress;
  readonly agent: { readonly id: string; readonly name: string; readonly key: AgentKey };
}

/**
 * The conformance kit (ADP-16, U-35): what every adapter Link ships must answer, run against a
 * running agent. Its contract (version 2), its needs (readable), its health (when it answers it),
 * its endpoint's proof (it proves the agent's key; a caller with another key, or a wrong proof, gets
 * nothing), answering only as the agent a request names (`agent`), a message answered with its
 * answer streamed, and `tools` narrowing accepted when the adapter says it narrows. Each check is a
 * row; none stops the others.
 */
export async function runKit(target: KitTarget): Promise<KitRow[]> {
  const rows: KitRow[] = [];
  const row = async (check: string, fn: () => Promise<string | { skipped: string }>) => {
    try {
      const said = await fn();
      rows.push(
        typeof said === "string"
          ? { check, result: "pass", detail: said }
          : { check, result: "skipped", detail: said.skipped },
      );
    } catch (err) {
      rows.push({ check, result: "fail", detail: err instanceof Error ? err.message : String(err) });
    }
  };
  const ask = { env: target.env, input: target.input };
  let contract: ContractAnswer | undefined;
  await row("contract", async () => {
    contract = await askContract(target.adapter, ask);
    return `version ${contract.version}; fields: ${contract.fields.join(", ") || "none"}`;
  });
  const has = (field: string) => contract?.fields.includes(field) ?? false;
  await row("needs", async () => {
    if (contract && !answers(contract, "needs")) {
      return { skipped: "it does not answer needs: it needs nothing more" };
    }
    const needs = await askAdapter(target.adapter, "needs", ask);
    return needs
      ? `${Object.keys(needs.spec).join(", ") || "no spec"}; ${needs.risks.length} risk(s)`
      : "nothing more";
  });
  await row("health", async () => {
    if (!contract || !answers(contract, "health")) return { skipped: "it does not answer health" };
    const health = await askAdapter(target.adapter, "health", ask);
    if (health && !health.ok) throw new Error(`it says it is not healthy: ${health.detail ?? ""}`);
    return health?.detail ?? "healthy";
  });
  const caller: AskCaller = { agentId: target.agent.id, agentName: target.agent.name, key: target.agent.key };
  await row("endpoint proof", async () => {
    await using _endpoint = await openEndpoint(target.endpoint, caller);
    return "it proved the agent's key to a fresh challenge";
  });
  await row("caller proof", async () => {
    if (!has("proof")) return { skipped: "it does not say `proof`" };
    const status = await wrongProof(target.endpoint, caller);
    if (status === 200) throw new Error("a request with a wrong proof was answered");
    return `a wrong proof was refused (${status})`;
  });
  await row("squatter", async () => {
    try {
      await using _ = await openEndpoint(target.endpoint, { ...caller, key: newAgentKey() });
    } catch (err) {
      if (isLinkError(err, "PROOF_FAILED")) {
        return "a caller holding another key was told it cannot trust the endpoint";
      }
      throw err;
    }
    throw new Error("the endpoint proved a key it cannot hold");
  });
  await row("agent", async () => {
    if (!has("agent")) return { skipped: "it does not say `agent`" };
    const status = await otherAgent(target.endpoint, caller);
    if (status === 200) throw new Error("a request naming another agent was answered");
    return `a request naming another agent was refused (${status})`;
  });
  await row("chat", async () => {
    const said = await chat(target.endpoint, caller, "kit: say something", {});
    return `answered "${said.text.slice(0, 60)}" (${said.stopReason}, ${said.chunks} chunk(s))`;
  });
  await row("tools narrowing", async () => {
    if (!has("tools")) return { skipped: "it does not say `tools`" };
    const said = await chat(target.endpoint, caller, "kit: with no tools", { "link.local/tools": [] });
    return `a conversation narrowed to no tools was answered (${said.stopReason})`;
  });
  return rows;
}

/** A message on a thread of the kit's own: its answer, as its updates streamed it. */
async function chat(
  address: EndpointAddress,
  caller: AskCaller,
  text: string,
  more: Record<string, unknown>,
): Promise<{ text: string; stopReason: string; chunks: number }> {
  await using endpoint = await openEndpoint(address, caller);
  const meta = { "link.local/thread": `kit:${crypto.randomUUID().slice(0, 8)}`, ...more };
  const made = await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  let said = "";
  let chunks = 0;
  const onUpdate = (update: SessionUpdate) => {
    if (update.sessionUpdate !== "agent_message_chunk") return;
    chunks++;
    said += (update.content as { text?: string } | undefined)?.text ?? "";
  };
  const sessionId = made.result?.sessionId ?? meta["link.local/thread"];
  const done = await endpoint.call("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
    _meta: meta,
  }, onUpdate);
  if (chunks === 0 || !said) throw new Error("the answer streamed no text");
  return { text: said, stopReason: String(done.result?.stopReason ?? ""), chunks };
}

/** The status of a request proved with a wrong proof, on the connection its challenge was given on. */
async function wrongProof(address: EndpointAddress, caller: AskCaller): Promise<number> {
  return await withChallenge(address, caller, async (http, challenge) => {
    const forged = makeProof(newAgentKey(), "link-caller-v1", challenge, caller.agentId);
    return await post(http, caller, { "Link-Proof": `${challenge} ${forged}` });
  });
}

/** The status of a well-proved request that names another agent than the one it proved. */
async function otherAgent(address: EndpointAddress, caller: AskCaller): Promise<number> {
  return await withChallenge(address, caller, async (http, challenge) => {
    const proof = makeProof(caller.key, "link-caller-v1", challenge, caller.agentId);
    return await post(http, { ...caller, agentId: "kitother0", agentName: "kit-other" }, {
      "Link-Proof": `${challenge} ${proof}`,
    });
  });
}

async function withChallenge<T>(
  address: EndpointAddress,
  caller: AskCaller,
  fn: (http: Http1Connection, challenge: string) => Promise<T>,
): Promise<T> {
  const conn = "port" in address
    ? await Deno.connect({ hostname: "127.0.0.1", port: address.port })
    : await Deno.connect({ transport: "unix", path: address.path });
  const http = new Http1Connection(conn);
  try {
    const res = await http.request({
      method: "GET",
      path: PROOF_PATH,
      headers: {
        "Link-Challenge": "0".repeat(64),
        "Link-Agent": caller.agentName,
        "Link-Agent-Id": caller.agentId,
      },
    });
    await readText(res.body);
    return await fn(http, res.headers.get("link-challenge") ?? "");
  } finally {
    http.close();
  }
}

async function post(
  http: Http1Connection,
  caller: AskCaller,
  headers: Record<string, string>,
): Promise<number> {
  const res = await http.request({
    method: "POST",
    path: "/acp",
    headers: {
      "Content-Type": "application/json",
      "Link-Agent": caller.agentName,
      "Link-Agent-Id": caller.agentId,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "session/new",
      params: { cwd: "/", mcpServers: [] },
    }),
  });
  await readText(res.body);
  return res.status;
}
