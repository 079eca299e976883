import assert from "node:assert/strict";
import { ToolCallAssembler } from "../../../../core/harness/model/tool_call_assembler.ts";

Deno.test("ToolCallAssembler puts calls together from servers that send no index", () => {
  const tools = new ToolCallAssembler();
  tools.add([{ id: "a", function: { name: "one", arguments: '{"x":' } }]);
  tools.add([{ function: { arguments: "1}" } }]);
  tools.add([{ id: "b", function: { name: "two", arguments: "" } }]);
  tools.add([{ function: { name: "three" } }]);
  assert.deepEqual(tools.finish(), [
    { id: "a", type: "function", function: { name: "one", arguments: '{"x":1}' } },
    { id: "b", type: "function", function: { name: "two", arguments: "{}" } },
    { id: "call_2", type: "function", function: { name: "three", arguments: "{}" } },
  ]);
  assert.equal(tools.size, 0);
});

Deno.test("ToolCallAssembler keeps calls in the order they started when their pieces interleave", () => {
  const tools = new ToolCallAssembler();
  tools.add([{ index: 1, id: "b", function: { name: "second", arguments: "" } }]);
  tools.add([{ index: 0, id: "a", function: { name: "first", arguments: '{"q"' } }]);
  tools.add([{ index: 1, function: { arguments: '{"n":2}' } }, {
    index: 0,
    function: { arguments: ':"z"}' },
  }]);
  assert.deepEqual(tools.finish().map((c) => [c.id, c.function.arguments]), [["b", '{"n":2}'], [
    "a",
    '{"q":"z"}',
  ]]);
});
