/** What Link knows of a harness it ships or knows of, before asking its adapter anything. */
export interface KnownHarness {
  /** The port `main` keeps (PRT-1). */
  readonly defaultPort: number;
  /** Whether it answers an ACP endpoint Link's connections can carry to (ADP-7). */
  readonly endpoint: boolean;
  /** Whether it takes LNK_PORT, so agents other than main can run it (PRT-2). */
  readonly takesPort: boolean;
  /** Built into lnk itself rather than an `lnk-<harness>` adapter program. */
  readonly builtIn: boolean;
  readonly title: string;
  /**
   * The adapter contract's `tools`: whether it narrows a conversation's tools to `_meta
   * link.local/tools` (TRN-12). Absent, it does not, and Link Scheduler refuses it a subagent with
   * fewer tools than its parent rather than give it all of them (SCH-8).
   */
  readonly tools?: boolean;
  /**
   * Whether it reads Link's Agent/skills/, listing the skills in its prompt (SKL-5). Absent, it
   * does not, and `lnk agent skill add` says the skill will not be read (SKL-4).
   */
  readonly readsSkills?: boolean;
  /**
   * A harness Link did not write, though its adapter is built in (acp): it keeps to no layout, so
   * its sandbox shows all of Home and keeps Agent/ out of reach (LAY-8), as any outside harness's.
   */
  readonly foreign?: boolean;
}

/**
 * The harnesses Link knows by name (PRN-5): the only place outside per-agent data where
 * OpenClaw, Hermes and DeepSeek Harness are named.
 */
export const KNOWN: Readonly<Record<string, KnownHarness>> = {
  link: {
    defaultPort: 18800,
    endpoint: true,
    takesPort: true,
    builtIn: true,
    title: "Link Harness",
    tools: true,
    readsSkills: true,
  },
  mini: { defaultPort: 18801, endpoint: true, takesPort: true, builtIn: true, title: "the mini harness" },
  /** Any stdio ACP agent named by its command (Qwen Code's `qwen --acp`), under the hub. */
  acp: {
    defaultPort: 18802,
    endpoint: true,
    takesPort: true,
    builtIn: true,
    foreign: true,
    title: "an ACP agent",
  },
  /** OpenClaw, its `openclaw acp` under the hub with its gateway beside it (core/adapters/openclaw/). */
  openclaw: {
    defaultPort: 18789,
    endpoint: true,
    takesPort: true,
    builtIn: true,
    foreign: true,
    title: "OpenClaw",
  },
  /** Hermes, its `hermes acp` under the hub, its API server's port kept for main (core/adapters/hermes/). */
  hermes: {
    defaultPort: 8642,
    endpoint: true,
    takesPort: true,
    builtIn: true,
    foreign: true,
    title: "Hermes",
  },
  /** DeepSeek Harness, its `dsh --profile acp` on stdio under the hub (core/adapters/deepseek/). */
  deepseek: {
    defaultPort: 18810,
    endpoint: true,
    takesPort: true,
    builtIn: true,
    foreign: true,
    title: "DeepSeek Harness",
  },
};

/** The command an example names for harness acp: outside harnesses are named here alone (PRN-5). */
export const ACP_COMMAND_EXAMPLE = "qwen --acp";

/** The harness a new agent gets. */
export const DEFAULT_HARNESS = "link";
