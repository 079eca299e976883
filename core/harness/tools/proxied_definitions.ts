import { logger } from "../../base/mod.ts";
import type { JsonValue, ToolDefinition } from "../model/mod.ts";

const log = logger("harness");

/** A tool as an MCP server lists it: what the model is told of it is made from these alone. */
export interface McpTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** One server's tools as the tool proxy listed them. */
export interface ListedServer {
  readonly server: string;
  readonly tools: readonly McpTool[];
}

/** A tool of Link's as the model is told of it (PRN-2): the same bytes however it was listed. */
export function proxiedDefinition(tool: McpTool): ToolDefinition {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description ?? "",
      parameters: tool.inputSchema as { [key: string]: JsonValue },
    },
  };
}

/**
 * Keeps, in the servers' order, each listed tool whose name no earlier one took (the harness's own
 * tools' names come in `taken`), saying in the log each one left out.
 */
export function keptTools(
  listed: readonly ListedServer[],
  taken: readonly string[],
  agentId: string,
): { server: string; tool: McpTool }[] {
  const names = new Set(taken);
  const kept: { server: string; tool: McpTool }[] = [];
  for (const { server, tools } of listed) {
    for (const tool of tools) {
      if (names.has(tool.name)) {
        log.warn("A tool of Link's tools has the name of one of the harness's own: it is left out", {
          agent: agentId,
          server,
          tool: tool.name,
        });
        continue;
      }
      names.add(tool.name);
      kept.push({ server, tool });
    }
  }
  return kept;
}
