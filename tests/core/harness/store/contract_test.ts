import { join } from "node:path";
import { filesStore, programStore, sqliteStore } from "../../../../core/harness/store/mod.ts";
import { driverCommand } from "../../../support/store_driver.ts";
import { type StoreBacking, storeContractTests } from "../../../support/store_contract.ts";

async function tempDir(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const path = await Deno.makeTempDir({ prefix: "lnk-store-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function backing(open: (dir: string) => StoreBacking["open"]): Promise<StoreBacking> {
  const dir = await tempDir();
  return { open: open(dir.path), [Symbol.asyncDispose]: () => dir[Symbol.asyncDispose]() };
}

storeContractTests("filesStore()", () => backing((dir) => () => filesStore(join(dir, "chats"))));

storeContractTests("sqliteStore()", () => backing((dir) => () => sqliteStore(join(dir, "chats.db"))));

storeContractTests(
  "programStore() serve, SQLite driver",
  () =>
    backing((dir) => () =>
      programStore({ command: driverCommand("sqlite", join(dir, "chats.db"), true), serve: true })
    ),
);

storeContractTests(
  "programStore() one-shot, files driver",
  () =>
    backing((dir) => () =>
      programStore({ command: driverCommand("files", join(dir, "chats"), false), serve: false })
    ),
  // Each call starts a process here: a few rounds race as well as ten.
  { raceRounds: 3 },
);
