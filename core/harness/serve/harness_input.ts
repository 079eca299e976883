import { z } from "zod";

/** One agent as handed to `lnk harness serve`: what the mini harness takes, and more when known. */
export const ServedAgentInput = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** The agent's key, base64: it stays in this process, never on the wire (U-3). */
  key: z.string(),
  /** The one owner (IDN-8); read from the agent's settings when not given. */
  owner: z.string().optional(),
  /**
   * The agent's folders as this process sees them: the brain (`Agent/`) and Home. Inside the
   * sandbox these are the paths the sandbox shows; read from the settings when not given.
   */
  folders: z.strictObject({ agent: z.string(), home: z.string() }).optional(),
  /** The store bridge's socket, when a driver outside the sandbox keeps the conversations (TRN-14). */
  store: z.strictObject({ socket: z.string() }).optional(),
});
export type ServedAgentInput = z.infer<typeof ServedAgentInput>;

/**
 * What `lnk harness serve` reads from its stdin, one line of JSON (keys never travel in argv):
 * the agents it answers for, its own agent first (ADP-4). The same shape as the mini harness's
 * `HarnessInput`, with optional fields a sandboxed start fills in.
 */
export const HarnessServeInput = z.strictObject({
  agents: z.array(ServedAgentInput).min(1),
});
export type HarnessServeInput = z.infer<typeof HarnessServeInput>;
