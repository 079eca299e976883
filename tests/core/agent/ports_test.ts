import assert from "node:assert/strict";
import {
  BLOCK_FROM,
  blockPorts,
  firstFreeBlock,
  MOVED_BELOW,
  randomFreeBlock,
} from "../../../core/agent/mod.ts";

Deno.test("firstFreeBlock() skips blocks overlapping other agents and ports in use (PRT-3)", () => {
  const taken = new Set([...blockPorts(20000), 20015]);
  const inUse = new Set([20023]);
  assert.equal(firstFreeBlock(taken, { free: (p) => !inUse.has(p) }), 20030);
  assert.equal(firstFreeBlock(new Set(), { free: () => true }), BLOCK_FROM);
});

Deno.test("randomFreeBlock() lies wholly below 32768 and spreads its choices (PRT-5)", () => {
  const blocks = Array.from({ length: 100 }, () => randomFreeBlock(new Set(), { free: () => true }));
  for (const b of blocks) assert.ok(b >= BLOCK_FROM && b + 9 < MOVED_BELOW && b % 10 === 0, String(b));
  assert.ok(new Set(blocks).size > 80, "choices are spread out");
  const sorted = [...blocks].sort((a, b) => a - b);
  assert.notDeepEqual(blocks, sorted, "not sequential");
});

Deno.test("randomFreeBlock() never picks a block with a taken port", () => {
  let n = 0;
  const sequence = [0, 0.5];
  const block = randomFreeBlock(new Set([20005]), { free: () => true, random: () => sequence[n++ % 2]! });
  assert.notEqual(block, 20000);
});
