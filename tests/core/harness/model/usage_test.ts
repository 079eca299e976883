import assert from "node:assert/strict";
import { addUsage, costOf, NO_USAGE } from "../../../../core/harness/model/mod.ts";

Deno.test("addUsage() sums usages and costOf() prices them, unknown without a price", () => {
  const one = { promptTokens: 3, completionTokens: 1, cachedTokens: 2 };
  const sum = addUsage(addUsage(NO_USAGE, one), one);
  assert.deepEqual(sum, { promptTokens: 6, completionTokens: 2, cachedTokens: 4 });
  assert.equal(costOf(sum, { inPerMillion: 0.1, outPerMillion: 0.5 }), 0.0000016);
  assert.equal(costOf(sum, undefined), undefined);
});
