import assert from "node:assert/strict";
import { splitAnswer, TELEGRAM_LIMIT } from "../../../connections/telegram/mod.ts";

Deno.test("splitAnswer() leaves an answer within the limit whole", () => {
  assert.deepEqual(splitAnswer("hello"), ["hello"]);
  assert.deepEqual(splitAnswer(""), [""]);
  assert.deepEqual(splitAnswer("x".repeat(TELEGRAM_LIMIT)), ["x".repeat(TELEGRAM_LIMIT)]);
});

Deno.test("splitAnswer() cuts a 9,000-character answer into three messages of at most 4,096 (CON-13)", () => {
  const words = Array.from({ length: 1800 }, (_, i) => `w${String(i % 1000).padStart(3, "0")}`).join(" ");
  assert.equal(words.length, 8999);
  const parts = splitAnswer(words);
  assert.equal(parts.length, 3);
  for (const part of parts) assert.ok(part.length <= TELEGRAM_LIMIT, `${part.length}`);
  assert.equal(parts.join(" "), words);
});

Deno.test("splitAnswer() prefers a paragraph break, then a line break, then a space", () => {
  assert.deepEqual(splitAnswer("aaaa bbbb\ncccc\n\ndddd eeee", 20), ["aaaa bbbb\ncccc", "dddd eeee"]);
  assert.deepEqual(splitAnswer("aaaa bbbb\ncccc dddd eeee", 20), ["aaaa bbbb", "cccc dddd eeee"]);
  assert.deepEqual(splitAnswer("aaaa bbbb cccc dddd eeee", 20), ["aaaa bbbb cccc dddd", "eeee"]);
  assert.deepEqual(splitAnswer("abcdefghij", 4), ["abcd", "efgh", "ij"]);
});

Deno.test("splitAnswer() cuts before a code block rather than inside it", () => {
  const text = "intro line\n```ts\nconst a = 1;\nconst b = 2;\n```\nafter";
  assert.deepEqual(splitAnswer(text, 45), ["intro line", "```ts\nconst a = 1;\nconst b = 2;\n```\nafter"]);
});

Deno.test("splitAnswer() closes a code block longer than a message and opens it again with its language", () => {
  const code = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
  const parts = splitAnswer("```py\n" + code + "\n```", 40);
  for (const part of parts) {
    assert.ok(part.length <= 40, part);
    assert.ok(part.startsWith("```py\n") && part.endsWith("```"), part);
  }
  const lines = parts.flatMap((p) => p.split("\n").filter((l) => !l.startsWith("```")));
  assert.deepEqual(lines, code.split("\n"));
});

Deno.test("splitAnswer() never cuts a character of two code units in half", () => {
  assert.deepEqual(splitAnswer("abc😀def", 4), ["abc", "😀de", "f"]);
});
