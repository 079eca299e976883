import type { SandboxSpec } from "../../../sandbox/mod.ts";
import type { ToolDefinition } from "../model/mod.ts";
import { editFileTool } from "./edit_file_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";
import { listFilesTool } from "./list_files_tool.ts";
import { notesTools } from "./notes_tools.ts";
import { readFileTool } from "./read_file_tool.ts";
import { runTool, type RunToolOptions } from "./run_tool.ts";
import { skillReadTool } from "./skill_read_tool.ts";
import { webFetchTool } from "./web_fetch_tool.ts";
import { writeFileTool } from "./write_file_tool.ts";

/** What decides the harness's own tools for a start. */
export interface BuiltinToolsOptions {
  /** The agent's grants as read at the start. */
  grants: SandboxSpec;
  run?: RunToolOptions;
}

/**
 * The harness's own tools for a start (PRN-1, PRN-3): files, run, web, notes and skills, in a
 * fixed order, each definition the same bytes for the same grants, so the tool list stays the
 * same from turn to turn (PRN-2). A tool the grants leave nothing to do with is left out: the
 * writing tools when no folder is writable, run when [commands] allows none, web_fetch when
 * [internet] allows no host.
 */
export function builtinTools(options: BuiltinToolsOptions): HarnessTool[] {
  const { files, commands, internet, network } = options.grants;
  const writable = Object.entries(files).some(([name, access]) => access === "write" && name !== "chats");
  return [
    listFilesTool(),
    readFileTool(),
    ...(writable ? [writeFileTool(), editFileTool()] : []),
    ...(commands.allow.length > 0 ? [runTool(options.run)] : []),
    ...(internet.hosts.length > 0 || network.mode === "host" ? [webFetchTool()] : []),
    ...notesTools(),
    skillReadTool(),
  ];
}

/** The tools as the model is told of them, in the list's order. */
export function toolDefinitions(tools: readonly HarnessTool[]): ToolDefinition[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: { ...t.parameters } },
  }));
}
