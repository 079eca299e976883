import type { ToolDefinition } from "../model/mod.ts";

/** Where a conversation's call comes from, sent in each call's `_meta` (SCH-9). */
export interface ProxiedCallMeta {
  /** `link.local/thread`: the calling conversation. */
  readonly thread: string;
  /** `link.local/hops`: the hops of the message the turn answers. */
  readonly hops: number;
  /** `link.local/tools`: the conversation's tools, by name. */
  readonly tools: readonly string[];
}

/** Link's tools reached through the tool proxy (SBX-18): their definitions and a call of one. */
export interface ProxiedTools extends AsyncDisposable {
  /** The tools of every server, in the servers' order, each as the model is told of it (PRN-2). */
  readonly definitions: readonly ToolDefinition[];
  /** Calls one by name, with the arguments the model wrote; a failure is a result, never a throw. */
  call(
    name: string,
    args: unknown,
    meta: ProxiedCallMeta,
    signal: AbortSignal,
  ): Promise<{ content: string; ok: boolean }>;
}
