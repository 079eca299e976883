import { z } from "zod";
// The two schemas alone, not their folders: inside the sandbox a wake waits on every module the
// harness loads, and agent/ and sandbox/ would bring all of Link's agent and sandbox code (PRC-13).
import { SandboxSpec, Spec } from "../../spec/mod.ts";

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
   * sandbox these are their real paths, where the sandbox binds Home and each collection it shows;
   * read from the settings when not given.
   */
  folders: z.strictObject({ agent: z.string(), home: z.string() }).optional(),
  /**
   * Folders this harness writes that run's commands must not (Agent/: chats/ and the notes in
   * memory/, LAY-7), kept from them with Landlock; run's commands are not confined when not given.
   */
  keepFromRun: z.array(z.string()).optional(),
  /**
   * Variables run's commands get over the process's own: a shared harness's agent's own proxy
   * (HTTP_PROXY and the rest), since the process serves several agents, each behind its own.
   */
  runEnv: z.record(z.string(), z.string()).optional(),
  /**
   * Folders run's commands may neither read nor write: in a shared harness, the other agents'
   * (PRC-2, PRC-4), which the process itself serves.
   */
  hideFromRun: z.array(z.string()).optional(),
  /** The store bridge's socket, when a driver outside the sandbox keeps the conversations (TRN-14). */
  store: z.strictObject({ socket: z.string() }).optional(),
  /**
   * The agent's spec (Config/spec.toml) as read outside: [turns], [model] context and store. This
   * and the fields below are handed over by the agent role because the sandbox hides ~/.lnk and
   * Config/; each is read from the agent's files when not given.
   */
  spec: Spec.optional(),
  /** The agent's grants (Config/sandbox.toml) its tools hold: [files] and [commands] (SBX-20). */
  grants: SandboxSpec.optional(),
  /**
   * The model as reached from where the harness runs: the proxy's base-URL form, with the
   * placeholder as the key when the proxy adds the real one (SBX-16), or a loopback port relayed
   * into the sandbox for a model on this machine.
   */
  model: z.strictObject({ baseUrl: z.string(), model: z.string(), key: z.string().optional() }).optional(),
  /**
   * The tool proxy (SBX-18): its base, `http://127.0.0.1:<port>/_link/s/<secret>/` with this start's
   * secret (SBX-19), and its MCP servers, each the path after it (`scheduler`). Its secret is held
   * here alone, never in an environment or a file run's commands could read (SCH-9).
   */
  toolProxy: z.strictObject({
    url: z.string(),
    servers: z.array(z.string().regex(/^[a-z][a-z0-9_-]*$/)),
    /** Its unix socket, reached directly where the sandbox shares the machine's network (host mode). */
    socket: z.string().optional(),
    /**
     * Each server's tools as the bridge listed them (`tools/list`, in the servers' order): the
     * harness tells the model of them from the start and loads the MCP SDK only at the first call
     * of one (PRC-13); listed by the harness itself, through the SDK, when not given.
     */
    listed: z.array(z.strictObject({
      server: z.string(),
      tools: z.array(z.strictObject({
        name: z.string().min(1),
        description: z.string().optional(),
        inputSchema: z.record(z.string(), z.json()),
      })),
    })).optional(),
  }).optional(),
  /** The proxy's base-URL form for web_fetch, `http://127.0.0.1:<port>/_link/s/<secret>/`. */
  proxy: z.strictObject({ url: z.string() }).optional(),
  /**
   * The harness's own tools as the model is told of them (PRN-2), made outside from the same
   * grants, so the harness loads its tools only when the model first calls one (PRC-13); made here
   * when not given.
   */
  tools: z.array(z.strictObject({
    type: z.literal("function"),
    function: z.strictObject({
      name: z.string().min(1),
      description: z.string(),
      parameters: z.record(z.string(), z.json()),
    }),
  })).optional(),
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
