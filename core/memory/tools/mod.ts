/**
 * Link Memory's tools (MEM-1): one MCP server the tool proxy serves, `search` and `write_note`,
 * each asking the owner's memory service for the one agent the proxy serves. Apart from
 * core/memory so the memory service never loads the MCP SDK.
 * @module
 */
export { MEMORY_SERVER, type MemoryToolsContext, memoryToolServer, searchText } from "./memory_tools.ts";
