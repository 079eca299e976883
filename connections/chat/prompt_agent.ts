import { LinkError } from "../../core/base/mod.ts";
import type { ProvenEndpoint } from "../endpoint/ask_for.ts";
import { ackKept, listKept, STEERED_WAIT_MS } from "../link/mod.ts";

/** The meta key marking an answer's sentence that says the agent could not answer. */
const ERROR_META = "link.local/error";

/** One chat message as a carrier sends it to the agent's endpoint. */
export interface PromptAgentOptions {
  /** The ACP session and Link's thread: `<connection>:<chat id>` (CON-10). */
  thread: string;
  /** `link.local/request`, so a kept answer finds the message it answers. */
  request: string;
  text: string;
  /**
   * Who wrote it when not the owner: a member of a shared chat, `person:<connection>:<id>`
   * (ACS-2, ACS-3), sent as `Link-From` and kept beside the message, never taken for the owner.
   */
  from?: string;
  /** `link.local/tools`: the conversation's tools, narrowed for good (a scheduled job's, SCH-7). */
  tools?: string[];
  /** Each piece of the answer as it is written. */
  onText(text: string): void;
  /**
   * When the message joined a running turn (202) whose answer is not kept yet: "empty" gives ""
   * (a chat's carrier sends nothing), "fail" throws AGENT_BUSY so the caller asks again with the
   * same request later (the runner, which must never record an answer it did not get).
   */
  unanswered?: "empty" | "fail";
  /**
   * When the turn failed (the harness says its agent could not answer): "say" gives that sentence
   * as the answer (a chat shows it), "throw" throws TURN_FAILED so the caller tries again as a new
   * message (the runner, which must never deliver a failure as the agent's answer).
   */
  failed?: "say" | "throw";
}

/**
 * Sends one message to the agent as a new ACP prompt in its thread (only the new message, CON-9),
 * streaming each piece of the answer to `onText`; resolves with the whole answer, said as the
 * agent could not answer when it failed. A message that joined a running turn (202) takes the
 * answer the harness keeps for it.
 */
export async function promptAgent(endpoint: ProvenEndpoint, options: PromptAgentOptions): Promise<string> {
  const meta: Record<string, unknown> = {
    "link.local/thread": options.thread,
    "link.local/request": options.request,
  };
  if (options.tools) meta["link.local/tools"] = options.tools;
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  let answer = "";
  const res = await endpoint.call(
    "session/prompt",
    { sessionId: options.thread, prompt: [{ type: "text", text: options.text }], _meta: meta },
    (update) => {
      if (update.sessionUpdate !== "agent_message_chunk") return;
      const text = (update.content as { text?: string } | undefined)?.text;
      if (!text || (update._meta as Record<string, unknown> | undefined)?.[ERROR_META] === true) return;
      answer += text;
      options.onText(text);
    },
    { from: options.from },
  );
  if (res.steered) return await steered(endpoint, options);
  const error = (res.result?._meta as Record<string, unknown> | undefined)?.[ERROR_META] as
    | { message?: string }
    | undefined;
  if (error && options.failed === "throw") throw turnFailed(error.message ?? "it failed");
  if (error) {
    return `${answer ? `${answer}\n\n` : ""}Your agent could not answer: ${error.message ?? "it failed"}`;
  }
  return answer;
}

/** The message joined a running turn (202): its answer is the one the harness keeps for it. */
async function steered(
  endpoint: ProvenEndpoint,
  options: { thread: string; request: string; unanswered?: "empty" | "fail"; failed?: "say" | "throw" },
): Promise<string> {
  const found = await listKept(endpoint, options.thread, { waitMs: STEERED_WAIT_MS });
  const mine = found.find((k) => k.requests.includes(options.request));
  const kept = options.unanswered === "fail" ? mine : mine ?? found[0];
  if (!kept && options.unanswered === "fail") {
    throw new LinkError(
      "AGENT_BUSY",
      "The agent is still answering this message: its answer is not kept yet",
      {
        hint: "Ask again with the same request once the turn ends",
      },
    );
  }
  if (!kept) return "";
  await ackKept(endpoint, [kept.id]);
  if (kept.error && options.failed === "throw") throw turnFailed(kept.answer);
  return kept.answer;
}

function turnFailed(why: string): LinkError {
  return new LinkError(
    "TURN_FAILED",
    `The agent could not answer: ${why.replace(/^Your agent could not answer: /, "")}`,
    {
      hint: "See `lnk agent logs` for what the harness said; a scheduled message is tried again as a new one",
    },
  );
}
