import assert from "node:assert/strict";
import {
  ERROR_CODES,
  errorCodeOfStatus,
  errorFromAnswer,
  errorResponse,
  errorStatus,
  LinkError,
} from "../../../core/base/mod.ts";

Deno.test("errorStatus() gives every code an error status, and errorCodeOfStatus() reads each back to a code of that status", () => {
  for (const code of ERROR_CODES) {
    const status = errorStatus(code);
    assert.ok(status >= 400 && status < 600, code);
    assert.equal(errorStatus(errorCodeOfStatus(status)), status, code);
  }
});

Deno.test("errorStatus() answers the statuses Link's endpoints and control sockets always did", () => {
  assert.deepEqual(
    ["USAGE", "PROOF_FAILED", "REFUSED", "UNSUPPORTED", "AGENT_BUSY", "INTERNAL", "SERVICE_FAILED"].map((c) =>
      errorStatus(c as "USAGE")
    ),
    [400, 401, 403, 404, 409, 500, 503],
  );
});

Deno.test("errorCodeOfStatus() says REFUSED for another 4xx and SERVICE_FAILED for another 5xx", () => {
  assert.deepEqual([418, 422, 501, 599].map(errorCodeOfStatus), [
    "REFUSED",
    "REFUSED",
    "SERVICE_FAILED",
    "SERVICE_FAILED",
  ]);
});

Deno.test("errorResponse() answers the one shape with its code's status, or the route's own", async () => {
  const res = errorResponse(new LinkError("PROOF_FAILED", "Cannot trust the caller"), {
    headers: { "Link-Challenge": "c" },
  });
  assert.deepEqual([res.status, res.headers.get("link-challenge"), await res.json()], [401, "c", {
    error: { code: "PROOF_FAILED", message: "Cannot trust the caller", hint: null },
  }]);
  const fixed = errorResponse(new LinkError("CONFIG_INVALID", "Cannot wake"), { status: 503 });
  assert.deepEqual([fixed.status, (await fixed.json()).error.code], [503, "CONFIG_INVALID"]);
});

Deno.test("errorFromAnswer() reads the one shape's code, else its status's with the body as message", () => {
  const shaped = errorFromAnswer(
    503,
    '{"error":{"code":"CONFIG_INVALID","message":"Cannot wake","hint":"Fix"}}',
  );
  assert.deepEqual([shaped.code, shaped.message, shaped.hint], ["CONFIG_INVALID", "Cannot wake", "Fix"]);
  const plain = errorFromAnswer(503, "Cannot wake the agent\n");
  assert.deepEqual([plain.code, plain.message, plain.hint], [
    "SERVICE_FAILED",
    "Cannot wake the agent",
    undefined,
  ]);
  const empty = errorFromAnswer(400, "");
  assert.deepEqual([empty.code, empty.message], ["INVALID", "it answered 400"]);
});
