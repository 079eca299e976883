/** The most bytes one line may take, its CR LF included: a start line, a field line, a chunk size. */
export const MAX_LINE_BYTES = 16 * 1024;

/** The most bytes a chunk size line (with its extensions) or a trailer line may take, CR LF included. */
export const MAX_CHUNK_LINE_BYTES = 4 * 1024;

/** The most bytes a head may take, empty lines before it and its blank line included; trailers too. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** The most field lines of one head, or of one body's trailers. */
export const MAX_FIELDS = 200;
