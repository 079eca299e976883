import type { SendCall } from "../../connections/link/mod.ts";
import type { Job } from "./job.ts";

/**
 * What a firing does outside the runner's own files (SCH-1: "through a driver that tests swap for
 * one in process"): ask an agent through its door, send on an agent's way in, find an agent's
 * schedule. The runner's is doorDriver; each throws a LinkError with its code when it cannot
 * (AGENT_NOT_FOUND for an agent removed: its firing is dropped; any other is retried).
 */
export interface FiringDriver {
  /** Sends the job's message to agent `job.to` as `request`; resolves with the whole answer. */
  ask(job: Job, request: string): Promise<string>;
  /** Sends a message out on the agent's way in (its own connection thread, SCH-3). */
  send(agentId: string, call: SendCall): Promise<void>;
  /** The agent's `Agent/schedule` folder, where a job for it is kept. */
  scheduleOf(agentId: string): Promise<string>;
}
