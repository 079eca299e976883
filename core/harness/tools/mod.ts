/**
 * Link Harness's own tools (PRN-1, PRN-3): files over the agent's one view of Home and its
 * instructions/, skills/ and chats/ (LAY-5), run under [commands], web_fetch through the agent's
 * proxy, notes in Agent/memory/, and skill_read. Each holds the agent's grants ([files] and
 * [commands], SBX-20); a bad argument or a refusal is a result the model reads, never a crash.
 * @module
 */
/** The tool interface: a tool, the context of a call, its result, and the injected runner. */
export type {
  AgentFolders,
  CommandOutput,
  HarnessTool,
  RunCommand,
  RunCommandOptions,
  ToolContext,
  ToolResult,
} from "./harness_tool.ts";
/** Makes a tool from a zod schema and code; results that succeed or fail. */
export { defineTool, fail, ok, type ToolSpec } from "./define_tool.ts";
/** Runs one tool call as the model wrote it, by name with JSON arguments. */
export { callTool } from "./call_tool.ts";
/** The fixed list of the harness's own tools for a start (PRN-2), and their definitions for the model. */
export { builtinTools, type BuiltinToolsOptions, toolDefinitions } from "./builtin_tools.ts";
/** A conversation's tools can only narrow (TRN-12). */
export { narrowToolNames, narrowTools } from "./narrow_tools.ts";
/** The view's grants: access by folder, and a path of the view found on disk or refused. */
export { type Access, accessOf, VIEW_COLLECTIONS, viewSegments } from "./view_access.ts";
export { resolveInView, type ViewTarget } from "./resolve_in_view.ts";
/** Each tool on its own. */
export { READ_PAGE_BYTES, readFileTool } from "./read_file_tool.ts";
export { WRITE_MAX_CHARS, writeFileTool } from "./write_file_tool.ts";
export { EDIT_MAX_BYTES, editFileTool } from "./edit_file_tool.ts";
export { LIST_MAX_ENTRIES, listFilesTool } from "./list_files_tool.ts";
export { RUN_DEFAULT_TIMEOUT_S, RUN_OUTPUT_CAP, runTool, type RunToolOptions } from "./run_tool.ts";
export { FETCH_MAX_BYTES, FETCH_TIMEOUT_MS, webFetchTool } from "./web_fetch_tool.ts";
export { NOTE_MAX_CHARS, notesTools } from "./notes_tools.ts";
export { SKILL_FILES, skillReadTool } from "./skill_read_tool.ts";
/** The program check of [commands], the default runner of run, and the runner kept out of Agent/ (LAY-7). */
export { checkCommand, findOnPath } from "./command_policy.ts";
export { runProcess, type SpawnProgram } from "./run_process.ts";
export { ConfinedRun } from "./confined_run.ts";
/** Helpers of web_fetch: the proxy's base-URL form, and HTML as readable text. */
export { toProxyUrl } from "./proxy_url.ts";
export { htmlToText } from "./html_to_text.ts";
