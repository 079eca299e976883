import { parseArgs } from "node:util";
import { LinkError } from "../../base/mod.ts";
import { filesStore, type OpenStore } from "./files_store.ts";
import { serveStoreDriver } from "./serve_store_driver.ts";
import { sqliteStore } from "./sqlite_store.ts";

const USAGE = "lnk store driver --kind files|sqlite --root <path> [--serve]";

/**
 * `lnk store driver --kind files|sqlite --root <path> [--serve]`: Link's own drivers as programs
 * speaking the store driver protocol on stdin/stdout (TRN-16, TRN-17). `--root` is the `chats`
 * folder for files and the database file for SQLite. With `--serve` it answers call after call
 * until stdin closes or it is stopped; without, one call. Its logs go to stderr.
 */
export async function runStoreDriverRole(args: string[], signal: AbortSignal): Promise<number> {
  const flags = parseRoleFlags(args);
  await using store = openDriverStore(flags.kind, flags.root);
  await serveStoreDriver(store, {
    input: Deno.stdin.readable,
    output: Deno.stdout.writable,
    serve: flags.serve,
    signal,
  });
  return 0;
}

function parseRoleFlags(args: string[]): { kind: string; root: string; serve: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        kind: { type: "string" },
        root: { type: "string" },
        serve: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new LinkError("USAGE", `Cannot start the store driver: ${(err as Error).message}`, {
      hint: `Run it as \`${USAGE}\``,
    });
  }
  if (values.kind === undefined || values.root === undefined) {
    throw new LinkError("USAGE", "Cannot start the store driver: it needs --kind and --root", {
      hint: `Run it as \`${USAGE}\``,
    });
  }
  return { kind: values.kind, root: values.root, serve: values.serve };
}

function openDriverStore(kind: string, root: string): OpenStore {
  if (kind === "files") return filesStore(root);
  if (kind === "sqlite") return sqliteStore(root);
  throw new LinkError("USAGE", `Cannot start the store driver: there is no driver of kind "${kind}"`, {
    hint: `Run it as \`${USAGE}\``,
  });
}
