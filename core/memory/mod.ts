/**
 * Link Memory (MEM-1..7): one index per agent of its notes (`Agent/memory/`) and conversations
 * (`Agent/chats/`), SQLite FTS5 for words and sqlite-vec for meaning, kept outside every sandbox
 * and made again from the files when lost; searched by the owner's memory service, its MCP tools
 * and `lnk agent memory`. Embeddings go to the agent's provider through the binding proof. This
 * is the engine, which the memory service loads; memory as agents and their bridges use it is in
 * `agent/`.
 * @module
 */
/** The index and what it holds. */
export { MemoryIndex, type Refreshed } from "./memory_index.ts";
export { type MemoryChunk, type MemoryFile, type MemoryOrigin } from "./memory_source.ts";
export { type MemoryHit, type MemorySearch, originText } from "./memory_hit.ts";
export { type MemoryPlace, memoryPlaceOf } from "./memory_place.ts";
/** Searching an index, by words and, with an embedder, by meaning. */
export {
  checkQuery,
  EMBED_PER_SEARCH,
  NO_EMBEDDINGS_NOTE,
  QUERY_MAX_CHARS,
  SEARCH_LIMIT_MAX,
  searchMemory,
} from "./search_memory.ts";
export { type Embedder } from "./embedder.ts";
/** The owner's memory service: its socket, and asking it. */
export { askMemoryService, memoryServiceSocketPath, ownerWord } from "./memory_client.ts";
/** Writing a note from outside the sandbox, never through a link. */
export { NOTE_MAX_CHARS, NoteName, type NoteWritten, writeNote } from "./write_note.ts";
/** Embeddings asked through an agent's binding proof, on its unix embedding endpoint only. */
export { bindingEmbedder, type BindingEmbedderOptions } from "./binding_embedder.ts";
/** The unix embedding endpoint of an agent (MEM-4..7): the binding proof checked, the owner the kernel's. */
export {
  answerEmbedding,
  type EmbedBinding,
  type EmbedCall,
  type EmbeddingsProvider,
  type EmbedEndpointOptions,
} from "./embed_endpoint.ts";
export { type EmbedEndpoint, ownerUid, serveEmbedEndpoint } from "./serve_embed_endpoint.ts";
