import {
  type AgentKey,
  checkProof,
  errorFromAnswer,
  LinkError,
  makeProof,
  newChallenge,
} from "../../core/base/mod.ts";
import { PROOF_PATH } from "./endpoint_guard.ts";
import { Http1Connection, readLines, readText } from "./http1_client.ts";

/** Where an endpoint listens: the agent's door on the loopback, or a unix socket. */
export type EndpointAddress = { port: number } | { path: string };

/** Who is calling and for which agent: the caller proves itself with the agent's key. */
export interface AskCaller {
  agentId: string;
  agentName: string;
  key: AgentKey;
  /** `Link-From` for a message from someone other than the owner (SCH-1). */
  from?: string;
  hops?: number;
}

/** One streamed piece of an answer: ACP `session/update` params. */
export type SessionUpdate = Record<string, unknown> & { sessionUpdate?: string };

/** How a message ended: answered, steered into a running turn (202), or refused. */
export type AskResult =
  | { kind: "answered"; text: string; stopReason: string }
  | { kind: "steered" };

/** A connection to an endpoint that has proved itself; each request is proved in turn. */
export class ProvenEndpoint implements AsyncDisposable {
  #http: Http1Connection;
  #caller: AskCaller;
  #challenge: string;
  #nextId = 1;

  constructor(http: Http1Connection, caller: AskCaller, challenge: string) {
    this.#http = http;
    this.#caller = caller;
    this.#challenge = challenge;
  }

  /**
   * Sends one ACP request and streams its `session/update`s; resolves with the final result.
   * `sender.from` names who wrote this one message when it is not the caller's own (ACS-3);
   * `sender.onAccepted` is told as the endpoint's 200 begins, before its answer is read (WHK-6).
   */
  async call(
    method: string,
    params: Record<string, unknown>,
    onUpdate: (update: SessionUpdate) => void = () => {},
    sender: { from?: string; onAccepted?: () => void } = {},
  ): Promise<{ status: number; result?: Record<string, unknown>; steered: boolean }> {
    const id = this.#nextId++;
    const res = await this.#http.request({
      method: "POST",
      path: "/acp",
      headers: this.#headers(sender.from),
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    });
    // An endpoint that never read the proof (a route it lacks) gives none: the challenge is unspent.
    this.#challenge = res.headers.get("link-challenge") ?? this.#challenge;
    if (res.status === 202 && res.headers.has("link-steered")) {
      await readText(res.body);
      return { status: 202, steered: true };
    }
    if (res.status !== 200) {
      const text = await readText(res.body);
      throw endpointError(res.status, text);
    }
    sender.onAccepted?.();
    for await (const line of readLines(res.body)) {
      if (!line.trim()) continue;
      const msg = JSON.parse(line) as {
        method?: string;
        params?: { update?: SessionUpdate };
        id?: number;
        result?: Record<string, unknown>;
        error?: { message?: string };
      };
      if (msg.method === "session/update" && msg.params?.update) onUpdate(msg.params.update);
      else if (msg.id === id && msg.error) throw endpointError(200, JSON.stringify({ error: msg.error }));
      else if (msg.id === id) {
        for await (const _ of res.body) { /* drain to the end of the answer */ }
        return { status: 200, result: msg.result ?? {}, steered: false };
      }
    }
    throw new LinkError("SERVICE_FAILED", "Cannot read the agent's answer: it ended without a result", {
      hint: "See `lnk agent logs` for what the harness said",
    });
  }

  /**
   * Sends one proven request to another route of the endpoint, such as `/_link/recover` (U-14);
   * resolves with its status and its body as text.
   */
  async request(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    const res = await this.#http.request({
      method,
      path,
      headers: this.#headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // An endpoint that never read the proof (a route it lacks) gives none: the challenge is unspent.
    this.#challenge = res.headers.get("link-challenge") ?? this.#challenge;
    return { status: res.status, text: await readText(res.body) };
  }

  /** The headers of a proven request: who calls, for which agent, and the proof of this request. */
  #headers(from = this.#caller.from): Record<string, string> {
    const proof = makeProof(this.#caller.key, "link-caller-v1", this.#challenge, this.#caller.agentId);
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "Link-Agent": this.#caller.agentName,
      "Link-Agent-Id": this.#caller.agentId,
      "Link-Proof": `${this.#challenge} ${proof}`,
      "Link-Hops": String(this.#caller.hops ?? 0),
    };
    if (from) headers["Link-From"] = from;
    return headers;
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.#http.close();
    return Promise.resolve();
  }
}

/** The error an endpoint answered with, its code kept, said as the agent's. */
function endpointError(status: number, text: string): LinkError {
  const said = errorFromAnswer(status, text);
  return new LinkError(said.code, `Your agent could not answer: ${said.message}`, {
    hint: said.hint ?? "See `lnk agent logs` for the harness's side",
    cause: said,
  });
}

/**
 * Why the agent's door could not wake it, from a 503 that proved the agent's key (a squatter's
 * cannot): the error it says, its code kept.
 */
function doorError(text: string): LinkError {
  const said = errorFromAnswer(503, text);
  return new LinkError(said.code, said.message, {
    hint: said.hint ?? "Run `lnk agent logs` to see why it could not wake",
    cause: said,
  });
}

/**
 * Connects to an agent's endpoint and checks it proves the agent's key before anything is sent
 * (BRG-1, PRT-6): a squatter on the port gets no message and no key.
 */
export async function openEndpoint(address: EndpointAddress, caller: AskCaller): Promise<ProvenEndpoint> {
  const conn = "port" in address
    ? await Deno.connect({ hostname: "127.0.0.1", port: address.port })
    : await Deno.connect({ transport: "unix", path: address.path });
  // A request's head and body go as two writes: Nagle would hold the body 40 ms for the head's ACK.
  if ("setNoDelay" in conn) conn.setNoDelay(true);
  const http = new Http1Connection(conn);
  try {
    const challenge = newChallenge();
    const res = await http.request({
      method: "GET",
      path: PROOF_PATH,
      headers: {
        "Link-Challenge": challenge,
        "Link-Agent": caller.agentName,
        "Link-Agent-Id": caller.agentId,
      },
    });
    const text = await readText(res.body);
    const proof = res.headers.get("link-proof") ?? "";
    const proven = checkProof(caller.key, "link-endpoint-v1", challenge, proof, caller.agentId);
    // The door answers 503 with a proof when it could not wake the agent: its reason is the agent's.
    if (res.status === 503 && proven) throw doorError(text);
    if (res.status !== 200 || !proven) {
      throw new LinkError(
        "PROOF_FAILED",
        "Cannot trust the program on the agent's port: it did not prove the agent's key",
        {
          hint:
            "Another program may hold the port. Run `lnk agent stop`, then `lnk agent start` to move the agent",
        },
      );
    }
    return new ProvenEndpoint(http, caller, res.headers.get("link-challenge") ?? "");
  } catch (err) {
    http.close();
    throw err;
  }
}
