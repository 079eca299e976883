import { z } from "zod";
import { LinkError, logger } from "../../base/mod.ts";
import type { JsonValue } from "../model/mod.ts";
import type { HarnessTool, ToolContext, ToolResult } from "./harness_tool.ts";

const log = logger("harness-tools");

/** A tool as written: its arguments as a zod schema, its code taking them checked. */
export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  args: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * Makes a HarnessTool from a spec: the JSON Schema comes from the zod schema (the same bytes for
 * the same schema, PRN-2), arguments are checked before the code runs, and anything the code
 * throws becomes a result that says what failed.
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): HarnessTool {
  return {
    name: spec.name,
    description: spec.description,
    parameters: jsonSchemaOf(spec.args),
    async run(args: unknown, ctx: ToolContext): Promise<ToolResult> {
      const parsed = spec.args.safeParse(args ?? {});
      if (!parsed.success) {
        return fail(
          `Cannot run ${spec.name}: some arguments are not valid:\n${z.prettifyError(parsed.error)}`,
        );
      }
      try {
        return await spec.run(parsed.data, ctx);
      } catch (err) {
        return failure(spec.name, err, ctx.signal);
      }
    },
  };
}

/** A successful result. */
export function ok(content: string): ToolResult {
  return { content, isError: false };
}

/** A failed result: what failed, and the hint on its own line. */
export function fail(message: string, hint?: string): ToolResult {
  return { content: hint ? `${message}\n  hint: ${hint}` : message, isError: true };
}

function failure(name: string, err: unknown, signal: AbortSignal): ToolResult {
  if (signal.aborted) return fail(`Cannot finish ${name}: the turn was cancelled`);
  if (err instanceof LinkError) return fail(err.message, err.hint);
  if (err instanceof Deno.errors.PermissionDenied) {
    return fail(`Cannot run ${name}: the system refused access`);
  }
  if (err instanceof Deno.errors.NotFound) {
    return fail(`Cannot run ${name}: the file or folder does not exist`);
  }
  log.warn("Tool failed", { tool: name, error: err instanceof Error ? err.message : String(err) });
  return fail(
    `Cannot run ${name}: it failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`,
  );
}

function jsonSchemaOf(schema: z.ZodType): { [key: string]: JsonValue } {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest));
}
