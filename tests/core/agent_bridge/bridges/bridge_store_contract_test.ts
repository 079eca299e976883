/**
 * bridgeStore() passes the one store contract test (TRN-14): over a real unix socket to a real
 * store bridge, with each driver behind it.
 */
import { join } from "node:path";
import { driverCommand } from "../../../support/store_driver.ts";
import { storeContractTests } from "../../../support/store_contract.ts";
import { startStoreRig } from "./_support.ts";

storeContractTests(
  "bridgeStore() over a store bridge, SQLite driver",
  () => startStoreRig((root) => ({ kind: "sqlite", path: join(root, "chats.sqlite") })),
);

storeContractTests(
  "bridgeStore() over a store bridge, files driver",
  () => startStoreRig((root) => ({ kind: "files", root: join(root, "chats") })),
);

storeContractTests(
  "bridgeStore() over a store bridge, program driver with serve",
  () =>
    startStoreRig((root) => ({
      kind: "program",
      command: driverCommand("sqlite", join(root, "chats.sqlite"), true),
      serve: true,
    })),
);
