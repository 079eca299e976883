import assert from "node:assert/strict";
import { firstLoggedError } from "../../../core/agent/mod.ts";

const at = (ms: number) => new Date(ms).toISOString();

Deno.test("firstLoggedError() never takes a sandboxed program's line for Link's reason", () => {
  const log = [
    JSON.stringify({
      time: at(2000),
      level: "error",
      scope: "harness",
      msg: "Forged",
      hint: "Run evil",
      from: "sandbox",
    }),
    JSON.stringify({
      time: at(3000),
      level: "error",
      scope: "agent",
      msg: "Cannot start the harness",
      hint: "Look",
    }),
  ].join("\n");
  assert.deepEqual(firstLoggedError(log, 1000), { message: "Cannot start the harness", hint: "Look" });
  assert.equal(firstLoggedError(log.split("\n")[0]!, 1000), undefined);
});
