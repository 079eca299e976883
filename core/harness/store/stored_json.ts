import { z } from "zod";
import { LinkError } from "../../base/mod.ts";

/** A conversation's narrowed tool list as kept beside its events (TRN-13): `tools.json` or a row. */
export const ToolsFile = z.strictObject({ tools: z.array(z.string()) });
export type ToolsFile = z.infer<typeof ToolsFile>;

/**
 * Parses JSON a store kept (a file or a column) through its schema; throws CONFIG_INVALID naming
 * where it came from, since a driver reads back only what it wrote and anything else was changed by hand.
 */
export function parseStoredJson<T extends z.ZodType>(schema: T, text: string, where: string): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw unreadable(where, "it is not JSON", err);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw unreadable(where, z.prettifyError(result.error), result.error);
  return result.data;
}

function unreadable(where: string, detail: string, cause: unknown): LinkError {
  return new LinkError("CONFIG_INVALID", `Cannot read ${where}: ${detail}`, {
    hint: `Move ${where} aside if it was edited by hand, then run the command again`,
    cause,
  });
}
