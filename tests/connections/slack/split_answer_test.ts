import assert from "node:assert/strict";
import { splitAnswer } from "../../../connections/chat/mod.ts";
import { SLACK_LIMIT } from "../../../connections/slack/mod.ts";

Deno.test("splitAnswer() at SLACK_LIMIT cuts a 9,000-character answer into three messages of at most 4,000 (CON-13)", () => {
  assert.equal(SLACK_LIMIT, 4000);
  const words = Array.from({ length: 1500 }, (_, i) => `word${String(i).padStart(2, "0")}`).join(" ").slice(
    0,
    9000,
  );
  const parts = splitAnswer(words, SLACK_LIMIT);
  assert.equal(parts.length, 3);
  for (const part of parts) assert.ok(part.length <= SLACK_LIMIT, `${part.length}`);
  assert.equal(parts.join(" "), words);
});

Deno.test("splitAnswer() at SLACK_LIMIT cuts before a code block that would cross the limit", () => {
  const prose = "p".repeat(3000);
  const code = "```sh\n" + "echo hi\n".repeat(200) + "```";
  assert.deepEqual(splitAnswer(`${prose}\n${code}`, SLACK_LIMIT), [prose, code]);
});
