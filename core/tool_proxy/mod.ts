/**
 * The tool proxy (SBX-18): Link's tools (Link Scheduler's, Link Memory's in its time) as MCP
 * servers over Streamable HTTP, served by the agent's bridge outside the sandbox on a unix socket
 * of its `.net/<id>/` folder, behind a secret made at each start of the sandbox (SBX-19).
 * @module
 */
export {
  type ListedServer,
  type ListedTool,
  serveToolProxy,
  type ServeToolProxyOptions,
  TOOL_CALL_MAX_BYTES,
  type ToolProxy,
  type ToolServerFactory,
} from "./serve_tool_proxy.ts";
