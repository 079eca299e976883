import assert from "node:assert/strict";
import { ERROR_CODES, errorFromWire, errorWire, LinkError } from "../../../core/base/mod.ts";

const read = (value: unknown) => {
  const err = errorFromWire(value);
  return err && { name: err.name, code: err.code, message: err.message, hint: err.hint };
};

Deno.test("errorWire() writes a LinkError in the one shape, hint null when it has none", () => {
  const hinted = new LinkError("HARNESS_MISSING", 'Cannot start agent "main": harness "x" is not installed', {
    hint: "Install it",
  });
  assert.deepEqual(errorWire(hinted), {
    error: {
      code: "HARNESS_MISSING",
      message: 'Cannot start agent "main": harness "x" is not installed',
      hint: "Install it",
    },
  });
  assert.deepEqual(errorWire(new LinkError("REFUSED", "Cannot go")), {
    error: { code: "REFUSED", message: "Cannot go", hint: null },
  });
});

Deno.test("errorWire() writes anything else thrown as INTERNAL", () => {
  assert.deepEqual(errorWire(new Error("boom")), {
    error: {
      code: "INTERNAL",
      message: "Link failed unexpectedly: boom",
      hint: "Run the command again with LNK_LOG=debug to see where, and report it",
    },
  });
});

Deno.test("errorFromWire() reads every code back as it was written", () => {
  for (const code of ERROR_CODES) {
    const text = JSON.stringify(errorWire(new LinkError(code, `Cannot ${code}`, { hint: "Do this" })));
    assert.deepEqual(read(JSON.parse(text)), {
      name: "LinkError",
      code,
      message: `Cannot ${code}`,
      hint: "Do this",
    });
  }
});

Deno.test("errorFromWire() takes fields beside the error, and a hint that is null or absent", () => {
  assert.deepEqual(read({ error: { code: "REFUSED", message: "No", hint: null }, reason: "busy" }), {
    name: "LinkError",
    code: "REFUSED",
    message: "No",
    hint: undefined,
  });
  assert.deepEqual(read({ error: { code: "USAGE", message: "Bad", extra: 1 } }), {
    name: "LinkError",
    code: "USAGE",
    message: "Bad",
    hint: undefined,
  });
});

Deno.test("errorFromWire() reads a code not on Link's list as INTERNAL, its message kept", () => {
  assert.deepEqual(read({ error: { code: "NOT_FOUND", message: "No route GET /x", hint: "Look" } }), {
    name: "LinkError",
    code: "INTERNAL",
    message: "No route GET /x",
    hint: "Look",
  });
  assert.deepEqual(
    read({ error: { code: "refused", message: "lower case is not a code" } })?.code,
    "INTERNAL",
  );
});

Deno.test("errorFromWire() says undefined for anything not the one shape", () => {
  const garbled: unknown[] = [
    undefined,
    null,
    "error",
    [],
    {},
    { error: "a string" },
    { error: { code: "REFUSED" } },
    { error: { message: "no code" } },
    { error: { code: 7, message: "a number" } },
    { error: { code: "REFUSED", message: "m", hint: 3 } },
  ];
  for (const value of garbled) assert.equal(errorFromWire(value), undefined, JSON.stringify(value));
});
