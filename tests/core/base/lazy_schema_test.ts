import assert from "node:assert/strict";
import { z } from "zod";
import { lazySchema } from "../../../core/base/mod.ts";

Deno.test("lazySchema() builds its schema at the first use, once (PRC-13)", () => {
  let builds = 0;
  const Schema = lazySchema(() => {
    builds++;
    return z.strictObject({ name: z.string() });
  });
  assert.equal(builds, 0);
  assert.deepEqual(Schema.parse({ name: "main" }), { name: "main" });
  assert.deepEqual(Schema.safeParse({ name: "main" }).success, true);
  assert.equal(builds, 1);
});

Deno.test("lazySchema() is as strict as the schema it builds", () => {
  const Schema = lazySchema(() => z.strictObject({ name: z.string(), size: z.number().int().default(1) }));
  const unknownKey = Schema.safeParse({ name: "main", typo: true });
  assert.deepEqual(unknownKey.success ? [] : unknownKey.error.issues.map((i) => i.code), [
    "unrecognized_keys",
  ]);
  const wrongType = Schema.safeParse({ name: 1 });
  assert.deepEqual(wrongType.success ? [] : wrongType.error.issues.map((i) => i.path), [["name"]]);
  assert.deepEqual(Schema.parse({ name: "main" }), { name: "main", size: 1 });
});

Deno.test("lazySchema() composes inside other schemas, lazy or not, and keeps instanceof", () => {
  const Inner = lazySchema(() => z.strictObject({ port: z.number() }));
  const Outer = lazySchema(() => z.strictObject({ inner: Inner.optional(), list: z.array(Inner) }));
  const Plain = z.strictObject({ inner: Inner });
  assert.deepEqual(Outer.parse({ list: [{ port: 1 }] }), { list: [{ port: 1 }] });
  assert.equal(Outer.safeParse({ list: [{ port: "1" }] }).success, false);
  assert.deepEqual(Plain.parse({ inner: { port: 2 } }), { inner: { port: 2 } });
  assert.equal(Plain.safeParse({ inner: { port: 2, extra: 1 } }).success, false);
  assert.equal(Inner instanceof z.ZodObject, true);
  assert.deepEqual(Object.keys(Outer.shape), ["inner", "list"]);
  assert.deepEqual({ ...Inner.shape }, Inner.shape);
  assert.equal(z.toJSONSchema(Inner).type, "object");
});
