import { z } from "zod";
// The one file of the store memory reads by, not the store's mod.ts: the memory service's start waits on it.
import { conversationFromFolder } from "../harness/store/conversation_folder.ts";
import { CHUNK_MAX_CHARS, type MemoryChunk } from "./memory_source.ts";

/** What memory reads of a conversation's event: the words said, by whom. Everything else is left. */
const SaidEvent = z.looseObject({
  type: z.enum(["message", "answer"]),
  text: z.string().max(1024 * 1024),
});

/**
 * The pieces of one file to index: a note in paragraphs, each with the line it starts on; a
 * conversation's event as the message or answer it holds. A file that is not what its name says
 * gives none.
 */
export function chunksOf(path: string, text: string): MemoryChunk[] {
  const note = /^memory\/(.+)\.md$/.exec(path);
  if (note) return noteChunks(note[1]!, text);
  const event = /^chats\/([^/]+)\/events\/([0-9]+)\.json$/.exec(path);
  if (!event) return [];
  const conversation = conversationFromFolder(event[1]!);
  if (conversation === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const said = SaidEvent.safeParse(parsed);
  if (!said.success || said.data.text.trim() === "") return [];
  const origin = { kind: "chat", conversation, event: Number(event[2]) } as const;
  return pieces(said.data.text).map((piece) => ({ origin, text: piece }));
}

function noteChunks(note: string, text: string): MemoryChunk[] {
  const chunks: MemoryChunk[] = [];
  let start = 0;
  let block: string[] = [];
  const flush = () => {
    const joined = block.join("\n").trim();
    for (const piece of pieces(joined)) {
      chunks.push({ origin: { kind: "note", note, line: start + 1 }, text: piece });
    }
    block = [];
  };
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") {
      flush();
      return;
    }
    if (block.length === 0) start = i;
    block.push(line);
  });
  flush();
  return chunks;
}

/** Text cut into pieces of at most CHUNK_MAX_CHARS. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK_MAX_CHARS) out.push(text.slice(i, i + CHUNK_MAX_CHARS));
  return out.filter((p) => p.trim() !== "");
}
