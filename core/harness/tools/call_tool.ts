import type { HarnessTool, ToolContext, ToolResult } from "./harness_tool.ts";
import { fail } from "./define_tool.ts";

/**
 * Runs one tool call as the model wrote it: the tool by name among those the conversation has,
 * its arguments as JSON text. An unknown name or arguments that are not JSON are a result the
 * model reads, never a throw.
 */
export async function callTool(
  tools: readonly HarnessTool[],
  call: { name: string; arguments: string },
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    const names = tools.map((t) => t.name).join(", ");
    return fail(
      `Cannot call "${call.name}": there is no such tool in this conversation`,
      `Use one of: ${names}`,
    );
  }
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return fail(
      `Cannot run ${call.name}: its arguments are not valid JSON`,
      "Send the arguments as one JSON object",
    );
  }
  return await tool.run(args, ctx);
}
