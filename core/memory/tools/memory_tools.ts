import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isLinkError, logger } from "../../base/mod.ts";
import { type MemorySearch, originText } from "../memory_hit.ts";
import { NOTE_MAX_CHARS, type NoteWritten } from "../write_note.ts";
import { QUERY_MAX_CHARS } from "../search_memory.ts";

const log = logger("memory-tools");

/** The tool proxy's path for Link Memory. */
export const MEMORY_SERVER = "memory";

/** What Link Memory's tools act with: the one agent the tool proxy serves, and its memory service. */
export interface MemoryToolsContext {
  /** The agent calling: the tool proxy's own, never anything a call says. */
  readonly agentId: string;
  /** Asks the owner's memory service at a route, once the agent's session is held. */
  readonly ask: (route: "/search" | "/write_note", body: Record<string, unknown>) => Promise<unknown>;
}

/**
 * Link Memory's tools as one MCP server: `search` (the agent's notes and conversations, by words
 * and by meaning, each result saying where it came from) and `write_note` (a note kept across
 * conversations and found by `search` from any of them). Their words are fixed, so the tool list
 * is the same at every turn (PRN-2).
 */
export function memoryToolServer(ctx: MemoryToolsContext): McpServer {
  const server = new McpServer({ name: "link-memory", version: "1.0.0" });
  server.registerTool(
    "search",
    {
      description: "Searches your memory: your notes and every conversation you have had, in any chat. " +
        "Give a question or some words; it finds what matches the words and, when embeddings are set up, " +
        "what is near in meaning. Each result says where it came from (a note and its line, or a " +
        "conversation and its event). Use it before you say you do not know something about your owner.",
      inputSchema: {
        query: z.string().min(1).max(QUERY_MAX_CHARS).describe("What to look for, in words"),
        limit: z.number().int().min(1).max(20).optional().describe("How many results, 8 unless given"),
      },
    },
    (args: { query: string; limit?: number }, extra: { _meta?: Record<string, unknown> }) =>
      answer("search", async () => {
        // The asking conversation is in the model's context already: its own events are left out.
        const thread = extra._meta?.["link.local/thread"];
        const exclude = typeof thread === "string" ? thread : undefined;
        // Which agent is the proxy's own, set last: nothing a call sends names another.
        const body = { query: args.query, limit: args.limit, exclude, agent: ctx.agentId };
        const found = await ctx.ask("/search", body) as MemorySearch;
        return searchText(found);
      }),
  );
  server.registerTool("write_note", {
    description: "Writes one of your notes: markdown you keep across conversations, found again by " +
      '`search` from any conversation. Keep one note per subject (such as "people" or "project-plan"); ' +
      'mode "replace" (the default) writes the whole note, "append" adds to its end.',
    inputSchema: {
      name: z.string().min(1).max(80).describe('The note\'s name, such as "people"'),
      text: z.string().max(NOTE_MAX_CHARS).describe("The note's markdown"),
      mode: z.enum(["replace", "append"]).optional(),
    },
  }, (args: { name: string; text: string; mode?: "replace" | "append" }) =>
    answer("write_note", async () => {
      const written = await ctx.ask("/write_note", {
        agent: ctx.agentId,
        name: args.name,
        text: args.text,
        append: args.mode === "append",
      }) as NoteWritten;
      return `${
        written.appended ? "Added to" : "Wrote"
      } note "${written.note}" (${written.chars} characters)`;
    }));
  return server;
}

/** A search's results as the model reads them. */
export function searchText(found: MemorySearch): string {
  const lines = found.hits.map((hit, i) =>
    `${i + 1}. ${originText(hit.origin)} (by ${hit.by.join(" and ")}):\n${hit.text}`
  );
  if (lines.length === 0) lines.push("Nothing in your memory matches.");
  if (found.note) lines.push(`(${found.note})`);
  return lines.join("\n\n");
}

/** A tool's text for the model; a LinkError is the error the model reads, with its hint. */
async function answer(tool: string, run: () => Promise<string>): Promise<CallToolResult> {
  try {
    return { content: [{ type: "text", text: await run() }] };
  } catch (err) {
    if (!isLinkError(err)) {
      log.error("A memory tool failed", { tool, error: String(err) });
      throw err;
    }
    log.info("A memory tool refused a call", { tool, code: err.code });
    const text = err.hint ? `${err.message}\n${err.hint}` : err.message;
    return { content: [{ type: "text", text }], isError: true };
  }
}
