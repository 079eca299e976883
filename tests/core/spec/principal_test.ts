import assert from "node:assert/strict";
import { accessFor, formatPrincipal, parsePrincipal } from "../../../core/spec/mod.ts";

Deno.test("ACS-2: a person of a workspace-scoped connection round-trips with the workspace", () => {
  const p = parsePrincipal("person:slack:T123:U456");
  assert.deepEqual(p, { kind: "person", connection: "slack", id: "T123:U456" });
  assert.deepEqual(formatPrincipal(p!), "person:slack:T123:U456");
});

Deno.test("ACS-2: chats, people and agents each read back as written", () => {
  for (
    const word of [
      "chat:telegram:-1001234",
      "person:telegram:42",
      "chat:discord:111:222",
      "agent:a1b2",
      "webhook:gh",
    ]
  ) {
    assert.deepEqual(formatPrincipal(parsePrincipal(word)!), word);
  }
  assert.deepEqual(parsePrincipal("person:signal:+15551234567"), {
    kind: "person",
    connection: "signal",
    id: "+15551234567",
  });
});

Deno.test("ACS-2: words that are not principals are refused, never half read", () => {
  for (
    const word of [
      "",
      "owner",
      "person:telegram",
      "person:telegram:",
      "person:Telegram:1",
      "person:telegram:1 2",
      "person:telegram:a:b:c:d",
      "team:x:1",
      "agent:a:b",
      "chat:telegram:../x",
      "webhook:",
      "webhook:GH",
      "webhook:gh:x",
      "webhook:../gh",
    ]
  ) assert.deepEqual(parsePrincipal(word), undefined, word);
});

Deno.test("ACS-1, CON-8: a connection's access is its own chats and people, nobody else's", () => {
  const access = accessFor("slack", [
    "person:slack:T1:U1",
    "chat:slack:T1:C9",
    "person:telegram:7",
    "agent:x",
    "webhook:slack",
    "nonsense",
  ]);
  assert.deepEqual([...access.persons], ["T1:U1"]);
  assert.deepEqual([...access.chats], ["T1:C9"]);
});

Deno.test("SCH-2, SCH-7: an agent's subagent is subagent:<job id>, nothing else, and is no one's chat or person", () => {
  const word = "subagent:j-0123456789abcdefghij";
  assert.deepEqual(parsePrincipal(word), { kind: "subagent", id: "j-0123456789abcdefghij" });
  assert.equal(formatPrincipal(parsePrincipal(word)!), word);
  for (
    const bad of [
      "subagent:",
      "subagent:a1",
      "subagent:j-0123",
      "subagent:j-0123456789abcdefghij:x",
      "subagent:J-0123456789ABCDEFGHIJ",
    ]
  ) assert.deepEqual(parsePrincipal(bad), undefined, bad);
  const access = accessFor("telegram", [word, "person:telegram:7"]);
  assert.deepEqual([[...access.persons], [...access.chats]], [["7"], []]);
});

Deno.test("WHK-5: a webhook's principal names the hook alone", () => {
  assert.deepEqual(parsePrincipal("webhook:gh-push"), { kind: "webhook", name: "gh-push" });
  assert.equal(formatPrincipal({ kind: "webhook", name: "gh-push" }), "webhook:gh-push");
});
