import assert from "node:assert/strict";
import { join } from "node:path";
import { roleArgv } from "../../../../core/base/mod.ts";
import { programStore } from "../../../../core/harness/store/mod.ts";
import { denoScript, STORE_DRIVER_CHILD } from "../../../support/store_driver.ts";
import { message } from "../../../support/store_contract.ts";

Deno.test({
  name: "lnk store driver --kind files --serve answers through main.ts (TRN-16)",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "lnk-store-role-" });
    try {
      const command = roleArgv([
        "store",
        "driver",
        "--kind",
        "files",
        "--root",
        join(dir, "chats"),
        "--serve",
      ]);
      await using store = programStore({ command, serve: true });
      assert.equal(await store.append("link:main", 1, message("hi")), "ok");
      assert.deepEqual(await store.list(), ["link:main"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("runStoreDriverRole() refuses an unknown kind and missing flags with USAGE, on stderr", async () => {
  for (
    const args of [["--kind", "postgres", "--root", "x"], ["--kind", "files"], ["--root", "x", "--bogus"]]
  ) {
    const [exe, ...rest] = denoScript(STORE_DRIVER_CHILD, args);
    const out = await new Deno.Command(exe!, { args: rest, stdin: "null", stdout: "piped", stderr: "piped" })
      .output();
    assert.equal(out.success, false, args.join(" "));
    assert.equal(new TextDecoder().decode(out.stdout), "", "nothing on the protocol's stdout");
    assert.match(new TextDecoder().decode(out.stderr), /Cannot start the store driver/);
  }
});
