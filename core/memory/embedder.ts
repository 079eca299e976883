/** Turns texts into vectors: the agent's embeddings provider, reached as memory may reach it. */
export interface Embedder {
  /** The model asked, so vectors of one model are never compared with another's. */
  readonly model: string;
  /** One vector per text, in order; throws PROVIDER_ERROR when the provider answers anything else. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}
