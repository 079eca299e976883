import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import type { BuiltInAdapter } from "../ask_adapter.ts";
import type { AdapterInput } from "../contract.ts";
import { resolveCommand } from "./acp_command.ts";

/** The acp harness's settings, kept in the agent's settings as `[acp]`: its command's words. */
export const AcpSettings = z.strictObject({
  command: z.array(z.string()).min(1).refine((words) => words[0] !== "", "must name a program first"),
});
export type AcpSettings = z.infer<typeof AcpSettings>;

/**
 * The `acp` adapter, built in: any stdio ACP agent named by its command (`lnk agent create q
 * --harness acp --acp-command "<command>"`). Its endpoint is the command under the hub; its needs
 * are a read-only grant of where the command's program (and the interpreter its `#!` line names)
 * lives, found on the PATH Link runs with, as the person named the command themselves; the
 * model reaches it as OpenAI-compatible variables through Link's proxy (docs/adapters.md).
 */
export const acpAdapter: BuiltInAdapter = {
  harness: "acp",
  async answer(command, input, env) {
    switch (command) {
      case "contract":
        return { version: 2, commands: ["contract", "needs", "endpoint"], fields: ["proof", "agent"] };
      case "needs": {
        const resolved = await resolveCommand(settingsOf(input).command, env);
        if (resolved.read.length === 0) return {};
        return {
          spec: { paths: { read: resolved.read } },
          why: {
            paths: `the ACP command's program "${
              settingsOf(input).command[0]
            }", read-only where it is installed`,
          },
        };
      }
      case "endpoint": {
        const resolved = await resolveCommand(settingsOf(input).command, env);
        return { stdio: { command: resolved.command, env: { PATH: resolved.path } } };
      }
      default:
        return {};
    }
  },
};

function settingsOf(input: AdapterInput): AcpSettings {
  const parsed = AcpSettings.safeParse(input.agent?.settings);
  if (parsed.success) return parsed.data;
  throw new LinkError("CONFIG_INVALID", "The agent on harness acp has no ACP command in its settings", {
    hint: 'Make it again with `lnk agent create <name> --harness acp --acp-command "<command>"`',
  });
}
