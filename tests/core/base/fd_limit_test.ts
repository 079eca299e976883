import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const FD_LIMIT = new URL("../../../core/base/fd_limit.ts", import.meta.url).href;

/** Runs `code` in a child of its own, so this process's limit stays as it is; its stdout as JSON. */
async function inChild(code: string): Promise<unknown> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", code],
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    stderr: "inherit",
  }).output();
  assert.ok(success);
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test({
  name: "raiseFdLimit() raises a lowered soft limit on open descriptors to the hard one",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const seen = await inChild(`
      import { raiseFdLimit, readFdLimit, setFdLimit } from "${FD_LIMIT}";
      setFdLimit(100);
      const lowered = readFdLimit();
      const raised = raiseFdLimit();
      console.log(JSON.stringify({ lowered: lowered.soft, raised: raised.soft === raised.hard, again: raiseFdLimit() }));
    `) as { lowered: number; raised: boolean; again: { soft: number; hard: number } };
    assert.equal(seen.lowered, 100);
    assert.equal(seen.raised, true);
    assert.equal(seen.again.soft, seen.again.hard);
    assert.ok(seen.again.soft > 100);
  },
});
