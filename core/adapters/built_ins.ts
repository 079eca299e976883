import { acpAdapter } from "./acp/mod.ts";
import { hermesAdapter } from "./hermes/mod.ts";
import { deepseekAdapter } from "./deepseek/mod.ts";
import { openclawAdapter } from "./openclaw/mod.ts";
import type { BuiltInAdapter } from "./ask_adapter.ts";

/** Link Harness's adapter: an HTTP endpoint on the agent's port, with every field (ADP-4, ADP-8, TRN-12). */
const linkAdapter: BuiltInAdapter = {
  harness: "link",
  answer(command, input) {
    if (command === "contract") {
      return {
        version: 2,
        commands: ["contract", "endpoint", "folders"],
        fields: ["proof", "agent", "serve", "tools"],
      };
    }
    if (command === "endpoint") return input.agent ? { port: input.agent.ports.endpoint } : {};
    // Link Harness writes only chats/ (ADP-11).
    if (command === "folders") return { writes: ["chats"] };
    return {};
  },
};

/** The mini harness's adapter, the reference: an HTTP endpoint, the proof, answering as the agent named. */
const miniAdapter: BuiltInAdapter = {
  harness: "mini",
  answer(command, input) {
    if (command === "contract") {
      return { version: 2, commands: ["contract", "endpoint"], fields: ["proof", "agent"] };
    }
    if (command === "endpoint") return input.agent ? { port: input.agent.ports.endpoint } : {};
    return {};
  },
};

/**
 * The adapters built into lnk, answered in its own process (`lnk harness adapter <harness> <command>`):
 * with KNOWN, the one list naming the outside harnesses Link ships an adapter for (PRN-5).
 */
export const BUILT_INS: readonly BuiltInAdapter[] = [
  linkAdapter,
  miniAdapter,
  acpAdapter,
  openclawAdapter,
  hermesAdapter,
  deepseekAdapter,
];
