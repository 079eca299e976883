import { LinkError, readStdinLine } from "../base/mod.ts";
import { ADAPTER_COMMANDS, type AdapterCommand, AdapterInput } from "./contract.ts";
import { BUILT_INS } from "./built_ins.ts";

/**
 * `lnk harness adapter <harness> <command> --json`: an adapter Link ships, asked as any
 * `lnk-<harness>` program is (its input a JSON line on stdin, its answer one on stdout), so the
 * contract of Link's own harnesses can be read from outside, by a person or another program.
 */
export async function runAdapterRole(args: string[], _signal: AbortSignal): Promise<number> {
  const [harness, command] = args;
  const adapter = BUILT_INS.find((b) => b.harness === harness);
  if (!adapter || !(ADAPTER_COMMANDS as readonly string[]).includes(command ?? "")) {
    throw new LinkError(
      "USAGE",
      `lnk harness adapter needs one of Link's harnesses and a command of the contract`,
      {
        hint: `Such as \`lnk harness adapter acp contract --json\`: harnesses ${
          BUILT_INS.map((b) => b.harness).join(", ")
        }; commands ${ADAPTER_COMMANDS.join(", ")}`,
      },
    );
  }
  const line = Deno.stdin.isTerminal() ? "" : await readStdinLine().catch(() => "");
  const input = AdapterInput.parse(line.trim() ? JSON.parse(line) : {});
  const answer = await adapter.answer(command as AdapterCommand, input, Deno.env);
  await Deno.stdout.write(new TextEncoder().encode(`${JSON.stringify(answer ?? {})}\n`));
  return 0;
}

/**
 * `lnk harness launch <harness> [<arg>...]`: a built-in adapter's endpoint launcher, the stdio ACP
 * command its `endpoint` names, run by the hub inside the agent's sandbox.
 */
export async function runLaunchRole(args: string[], signal: AbortSignal): Promise<number> {
  const [harness, ...rest] = args;
  const adapter = BUILT_INS.find((b) => b.harness === harness);
  if (!adapter?.launch) {
    throw new LinkError("USAGE", `lnk harness launch needs a harness of Link's whose endpoint it launches`, {
      hint: `It is run by the hub from an adapter's \`endpoint\` answer: harnesses ${
        BUILT_INS.filter((b) => b.launch).map((b) => b.harness).join(", ")
      }`,
    });
  }
  return await adapter.launch(rest, signal);
}
