import type { z } from "zod";
import type { ConversationEvent, ConversationStore, Lease, StoredEvent } from "./contract.ts";
import { type DriverCall, DriverReply } from "./driver_protocol.ts";
import type { LeaseJudgement } from "./lease_rules.ts";

/** Sends one driver-protocol call and reads its answer with the schema given. */
export type DriverCaller = <S extends z.ZodType>(request: DriverCall, reply: S) => Promise<z.output<S>>;

/**
 * The store contract spoken as driver-protocol calls (U-12), whoever carries them: a driver
 * program's stdin, or the store bridge. One mapping, so every carrier means the same by each call.
 */
export function storeOverCalls(call: DriverCaller): ConversationStore {
  return {
    async append(conversation: string, n: number, event: ConversationEvent): Promise<"ok" | "conflict"> {
      const reply = await call({ op: "append", conversation, n, event }, DriverReply.append);
      return "ok" in reply ? "ok" : "conflict";
    },
    async read(conversation: string, from?: number): Promise<StoredEvent[]> {
      const request: DriverCall = { op: "read", conversation, ...(from === undefined ? {} : { from }) };
      return (await call(request, DriverReply.read)).events.map(({ n, event }) => ({ n, event }));
    },
    async leaseRead(conversation: string): Promise<Lease | undefined> {
      return (await call({ op: "lease.read", conversation }, DriverReply.lease)).lease ?? undefined;
    },
    async leaseTake(
      conversation: string,
      lease: Lease,
      judgement: LeaseJudgement,
    ): Promise<Lease | undefined> {
      const request: DriverCall = {
        op: "lease.take",
        conversation,
        lease,
        lapse_ms: judgement.lapseMs,
        now_ms: judgement.nowMs,
      };
      return (await call(request, DriverReply.lease)).lease ?? undefined;
    },
    async leaseRenew(conversation: string, lease: Lease, nowMs: number): Promise<boolean> {
      const request: DriverCall = { op: "lease.renew", conversation, lease, now_ms: nowMs };
      return (await call(request, DriverReply.renewed)).renewed;
    },
    async leaseRelease(conversation: string, lease: Lease): Promise<void> {
      await call({ op: "lease.release", conversation, lease }, DriverReply.done);
    },
    async toolsRead(conversation: string): Promise<string[] | undefined> {
      return (await call({ op: "tools.read", conversation }, DriverReply.tools)).tools ?? undefined;
    },
    async toolsWrite(conversation: string, tools: string[]): Promise<void> {
      await call({ op: "tools.write", conversation, tools }, DriverReply.done);
    },
    async list(): Promise<string[]> {
      return (await call({ op: "list" }, DriverReply.conversations)).conversations;
    },
  };
}

/** What a call does, in words, for messages ("Cannot <what>: ..."). */
export function describeCall(call: DriverCall): string {
  if (call.op === "list") return "list conversations";
  const of = `conversation "${call.conversation}"`;
  switch (call.op) {
    case "append":
      return `append event ${call.n} to ${of}`;
    case "read":
      return `read ${of}`;
    case "lease.read":
      return `read the lease of ${of}`;
    case "lease.take":
      return `take the turn of ${of}`;
    case "lease.renew":
      return `renew the lease of ${of}`;
    case "lease.release":
      return `release the lease of ${of}`;
    case "tools.read":
      return `read the tool list of ${of}`;
    case "tools.write":
      return `write the tool list of ${of}`;
  }
}
