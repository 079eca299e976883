import { DEREGISTERED, type FakeSignal, serveFakeSignal } from "./fake_signal.ts";
import { readEvents } from "./signal/sse_reader.ts";
import assert from "node:assert/strict";
import { FakeClock } from "../support/fake_clock.ts";

async function rpc(signal: FakeSignal, body: unknown, contentType = "application/json") {
  const response = await fetch(`${signal.url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** `GET /api/v1/events` (with `query`), read as Server-Sent Events. */
async function openEvents(signal: FakeSignal, query = "") {
  const response = await fetch(`${signal.url}/api/v1/events${query}`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  return readEvents(response.body!);
}

function request(method: string, params?: Record<string, unknown>, id: number | string = 1) {
  return { jsonrpc: "2.0", method, ...(params ? { params } : {}), id };
}

Deno.test("a person's message reaches the event stream as a receive event with the whole envelope", async () => {
  await using signal = await serveFakeSignal();
  await using events = await openEvents(signal);
  const ada = signal.person("Ada");
  const said = signal.personSays(ada, "hello");
  assert.deepEqual(await events.nextEvent(), {
    envelope: {
      source: ada.number,
      sourceNumber: ada.number,
      sourceUuid: ada.uuid,
      sourceName: "Ada",
      sourceDevice: 1,
      timestamp: said.timestamp,
      serverReceivedTimestamp: said.timestamp + 1,
      serverDeliveredTimestamp: said.timestamp + 2,
      dataMessage: {
        timestamp: said.timestamp,
        message: "hello",
        expiresInSeconds: 0,
        isExpirationUpdate: false,
        viewOnce: false,
      },
    },
    account: signal.account,
  });
  const team = signal.group("Team", [ada]);
  signal.inGroup(team, ada, "hi all");
  const inGroup = await events.nextEvent() as { envelope: { dataMessage: Record<string, unknown> } };
  assert.deepEqual(inGroup.envelope.dataMessage.groupInfo, {
    groupId: team.id,
    groupName: "Team",
    revision: 1,
    type: "DELIVER",
  });
  assert.deepEqual(signal.streams, { open: 1, ever: 1, silenced: 0 });
});

Deno.test("send and sendTyping are answered as signal-cli answers them and recorded per recipient", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const typing = await rpc(signal, request("sendTyping", { recipient: [ada.number] }, 1));
  const sent = await rpc(signal, request("send", { recipient: [ada.number], message: "hi Ada" }, 2));
  const stopped = await rpc(signal, request("sendTyping", { recipient: ada.number, stop: true }, 3));
  const address = {
    recipientAddress: { uuid: ada.uuid, number: ada.number, username: null },
    type: "SUCCESS",
  };
  assert.equal(sent.status, 200);
  assert.deepEqual(sent.body, {
    jsonrpc: "2.0",
    result: { timestamp: sent.body.result.timestamp, results: [address] },
    id: 2,
  });
  assert.deepEqual(typing.body.result.results, [address]);
  assert.deepEqual(stopped.body.id, 3);
  assert.deepEqual(signal.typing(ada), ["started", "stopped"]);
  assert.deepEqual(signal.sent(ada).map((s) => [s.message, s.timestamp]), [[
    "hi Ada",
    sent.body.result.timestamp,
  ]]);
  const call = await signal.nextCall("send");
  assert.deepEqual(call.params, { recipient: [ada.number], message: "hi Ada" });

  const team = signal.group("Team", [ada]);
  const inGroup = await rpc(signal, request("send", { groupId: team.id, message: "hi team" }));
  assert.deepEqual(inGroup.body.result.results, [{ ...address, groupId: team.id }]);
  assert.deepEqual(signal.sent(team).map((s) => s.message), ["hi team"]);
  assert.deepEqual((await rpc(signal, request("version"))).body.result, { version: "0.14.6" });
});

Deno.test("errors come back as signal-cli's JSON-RPC errors", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const errorOf = async (body: unknown) => (await rpc(signal, body)).body;
  assert.deepEqual(await errorOf(request("nope")), {
    jsonrpc: "2.0",
    error: { code: -32601, message: "Method not implemented", data: null },
    id: 1,
  });
  assert.deepEqual((await errorOf(request("send", { recipient: ["+15559999999"], message: "x" }))).error, {
    code: -1,
    message: "The user +15559999999 is not registered.",
    data: null,
  });
  assert.deepEqual((await errorOf(request("send", { message: "x" }))).error.code, -1);
  assert.deepEqual((await errorOf(request("send", { recipient: [ada.number] }))).error.code, -1);
  assert.deepEqual((await errorOf(request("listAccounts"))).error.code, -32601);
  assert.deepEqual(await errorOf({ jsonrpc: "2.0" }), {
    jsonrpc: "2.0",
    error: { code: -32600, message: "method field must be set", data: null },
    id: null,
  });
  assert.deepEqual((await errorOf("{not json")).error.code, -32700);
  assert.deepEqual(await rpc(signal, { jsonrpc: "2.0", method: "version" }), {
    status: 201,
    body: undefined,
  });
  assert.equal((await rpc(signal, request("version"), "text/plain")).status, 415);
  const batch = await rpc(signal, [request("version", undefined, 1), request("nope", undefined, 2)]);
  assert.deepEqual(batch.body.map((a: { id: number; error?: { code: number } }) => [a.id, a.error?.code]), [
    [1, undefined],
    [2, -32601],
  ]);
});

Deno.test("failNext answers a rate limit, a deregistered account, a 5xx and garbage, then the real answer", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const send = request("send", { recipient: [ada.number], message: "hi" });
  signal.failNext("send", { rateLimited: 30 });
  signal.failNext("send", DEREGISTERED);
  signal.failNext("send", { status: 503, body: "Service Unavailable" });
  signal.failNext("send", { garbage: "<html>" });
  const limited = await rpc(signal, send);
  assert.deepEqual(limited.body.error, {
    code: -5,
    message: "Failed to send message due to rate limiting",
    data: {
      response: {
        timestamp: limited.body.error.data.response.timestamp,
        results: [{
          recipientAddress: { uuid: ada.uuid, number: ada.number, username: null },
          type: "RATE_LIMIT_FAILURE",
          retryAfterSeconds: 30,
        }],
      },
    },
  });
  assert.equal((await rpc(signal, send)).body.error.code, -32603);
  const unavailable = await fetch(`${signal.url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(send),
  });
  assert.deepEqual([unavailable.status, await unavailable.text()], [503, "Service Unavailable"]);
  const garbage = await fetch(`${signal.url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(send),
  });
  assert.deepEqual([garbage.status, await garbage.text()], [200, "<html>"]);
  assert.equal((await rpc(signal, send)).body.result.results[0].type, "SUCCESS");
  assert.deepEqual(signal.sent(ada).length, 1);
  assert.equal(signal.calls.length, 5);
});

Deno.test("an open stream gets a keep-alive comment every 15 s", async () => {
  const clock = new FakeClock();
  await using signal = await serveFakeSignal({ clock });
  await using events = await openEvents(signal);
  await clock.advance(15_000);
  assert.deepEqual(await events.next(), { comment: "" });
  await clock.advance(15_000);
  assert.deepEqual(await events.next(), { comment: "" });
});

Deno.test("stopStream() leaves the stream open and silent; a new stream gets what came meanwhile", async () => {
  const clock = new FakeClock();
  await using signal = await serveFakeSignal({ clock });
  const ada = signal.person("Ada");
  await using first = await openEvents(signal);
  signal.personSays(ada, "before");
  assert.equal(
    ((await first.nextEvent()) as { envelope: { dataMessage: { message: string } } })
      .envelope.dataMessage.message,
    "before",
  );
  assert.equal(signal.stopStream(), 1);
  assert.deepEqual(signal.streams, { open: 1, ever: 1, silenced: 1 });
  signal.personSays(ada, "during");
  await clock.advance(30_000);
  await using second = await openEvents(signal);
  const during = await second.nextEvent() as { envelope: { dataMessage: { message: string } } };
  assert.equal(during.envelope.dataMessage.message, "during");
  await clock.advance(15_000);
  assert.deepEqual(await second.next(), { comment: "" });
  // The first stream said nothing after it was stopped: read it to its end once the daemon goes.
  await signal.goDown();
  assert.equal(await first.next(), undefined);
});

Deno.test("restart() refuses connections while down and delivers what arrived meanwhile", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const before = await openEvents(signal);
  await signal.goDown();
  assert.equal(await before.next(), undefined);
  await before[Symbol.asyncDispose]();
  await assert.rejects(fetch(`${signal.url}/api/v1/check`), TypeError);
  signal.personSays(ada, "while down");
  signal.comeBack();
  const check = await fetch(`${signal.url}/api/v1/check`);
  assert.deepEqual([check.status, await check.text()], [200, ""]);
  await using after = await openEvents(signal);
  const kept = await after.nextEvent() as { envelope: { dataMessage: { message: string } } };
  assert.equal(kept.envelope.dataMessage.message, "while down");
  assert.deepEqual(signal.streams, { open: 1, ever: 2, silenced: 0 });
});

Deno.test("restart({ replay: true }) hands out again what was handed out before it", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const before = await openEvents(signal);
  const first = signal.personSays(ada, "once");
  await before.nextEvent();
  await signal.restart({ replay: true });
  await before[Symbol.asyncDispose]();
  signal.personSays(ada, "twice?");
  await using after = await openEvents(signal);
  const again = await after.nextEvent() as { envelope: { timestamp: number } };
  const next = await after.nextEvent() as { envelope: { dataMessage: { message: string } } };
  assert.equal(again.envelope.timestamp, first.timestamp);
  assert.equal(next.envelope.dataMessage.message, "twice?");
});

Deno.test("on-start mode loses what arrives while no stream is open, as signal-cli's default does", async () => {
  await using signal = await serveFakeSignal({ receiveMode: "on-start" });
  const ada = signal.person("Ada");
  const lost = signal.personSays(ada, "nobody listening");
  assert.deepEqual(signal.lost, [lost]);
  await using events = await openEvents(signal);
  signal.personSays(ada, "heard");
  const heard = await events.nextEvent() as { envelope: { dataMessage: { message: string } } };
  assert.equal(heard.envelope.dataMessage.message, "heard");
});

Deno.test("edits, deletions, typing, receipts and the owner's own sends arrive as signal-cli spells them", async () => {
  await using signal = await serveFakeSignal();
  await using events = await openEvents(signal);
  const ada = signal.person("Ada");
  const team = signal.group("Team", [ada]);
  const said = signal.inGroup(team, ada, "helo");
  const kinds = [
    signal.personEdits(ada, said, "hello"),
    signal.personDeletes(ada, said),
    signal.personTypes(ada, "STARTED", team),
    signal.personReceipt(ada, [said.timestamp], "read"),
    signal.sentFromOtherDevice(ada, "from my phone"),
  ];
  await events.nextEvent();
  const got = [];
  for (let i = 0; i < kinds.length; i++) {
    got.push((await events.nextEvent() as { envelope: unknown }).envelope);
  }
  const info = { groupId: team.id, groupName: "Team", revision: 1, type: "DELIVER" };
  const plain = { expiresInSeconds: 0, isExpirationUpdate: false, viewOnce: false };
  const [edit, deletion, typing, receipt, sync] = kinds;
  assert.deepEqual(got.map((e) => omitCommon(e as Record<string, unknown>)), [
    {
      editMessage: {
        targetSentTimestamp: said.timestamp,
        dataMessage: { timestamp: edit!.timestamp, message: "hello", ...plain, groupInfo: info },
      },
    },
    {
      dataMessage: {
        timestamp: deletion!.timestamp,
        message: null,
        ...plain,
        remoteDelete: { timestamp: said.timestamp },
        groupInfo: info,
      },
    },
    { typingMessage: { action: "STARTED", timestamp: typing!.timestamp, groupId: team.id } },
    {
      receiptMessage: {
        when: receipt!.timestamp,
        isDelivery: false,
        isRead: true,
        isViewed: false,
        timestamps: [said.timestamp],
      },
    },
    {
      syncMessage: {
        sentMessage: {
          destination: ada.number,
          destinationNumber: ada.number,
          destinationUuid: ada.uuid,
          timestamp: sync!.timestamp,
          message: "from my phone",
          ...plain,
        },
      },
    },
  ]);
  const owner = got[4] as { sourceNumber: string; sourceDevice: number };
  assert.deepEqual([owner.sourceNumber, owner.sourceDevice], [signal.account, 2]);
});

const COMMON = ["source", "sourceNumber", "sourceUuid", "sourceName", "sourceDevice", "timestamp"];

/** The envelope without its source and timestamps. */
function omitCommon(envelope: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...envelope };
  for (const key of [...COMMON, "serverReceivedTimestamp", "serverDeliveredTimestamp"]) delete rest[key];
  return rest;
}

Deno.test("sendReceipt and listGroups answer as signal-cli does", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const team = signal.group("Team", [ada]);
  const receipt = await rpc(signal, request("sendReceipt", { recipient: ada.number, targetTimestamp: [5] }));
  assert.deepEqual(receipt.body.result.results, [{
    recipientAddress: { uuid: ada.uuid, number: ada.number, username: null },
    type: "SUCCESS",
  }]);
  const wrongType = await rpc(
    signal,
    request("sendReceipt", { recipient: ada.number, targetTimestamp: 5, type: "x" }),
  );
  assert.deepEqual(wrongType.body.error, { code: -1, message: "Unknown receipt type: x", data: null });
  const groups = await rpc(signal, request("listGroups"));
  assert.deepEqual(groups.body.result, [{
    id: team.id,
    name: "Team",
    description: "",
    isMember: true,
    isBlocked: false,
    messageExpirationTime: 0,
    members: [
      { number: ada.number, uuid: ada.uuid, isAdmin: false },
      { number: signal.account, uuid: signal.self.uuid, isAdmin: false },
    ],
    pendingMembers: [],
    requestingMembers: [],
    admins: [],
    banned: [],
    permissionAddMember: "EVERY_MEMBER",
    permissionEditDetails: "EVERY_MEMBER",
    permissionSendMessage: "EVERY_MEMBER",
    groupInviteLink: null,
  }]);
});

Deno.test("multi-account mode takes an account param, lists accounts, and refuses an unknown account", async () => {
  await using signal = await serveFakeSignal({ multiAccount: true, account: "+15550000100" });
  const ada = signal.person("Ada");
  assert.deepEqual((await rpc(signal, request("listAccounts"))).body.result, [{ number: "+15550000100" }]);
  const sent = await rpc(
    signal,
    request("send", { account: signal.account, recipient: ada.number, message: "hi" }),
  );
  assert.equal(sent.body.result.results[0].type, "SUCCESS");
  assert.deepEqual(signal.sent(ada).map((s) => s.message), ["hi"]);
  const unknown = await rpc(
    signal,
    request("send", { account: "+15550000999", recipient: ada.number, message: "x" }),
  );
  assert.deepEqual(unknown.body.error, {
    code: -32602,
    message: "Specified account does not exist",
    data: null,
  });
  const refused = await fetch(`${signal.url}/api/v1/events?account=%2B15550000999`);
  assert.deepEqual([refused.status, await refused.text()], [400, ""]);
  await using events = await openEvents(signal, `?account=${encodeURIComponent(signal.account)}`);
  signal.personSays(ada, "hello");
  assert.equal((await events.nextEvent() as { account: string }).account, "+15550000100");
});

Deno.test("a request naming another Host is refused with 421, as signal-cli pins the Host header", async () => {
  await using signal = await serveFakeSignal();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(signal.url).port) });
  await conn.write(
    new TextEncoder().encode("GET /api/v1/check HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"),
  );
  const head = new Uint8Array(64);
  const n = await conn.read(head);
  conn.close();
  assert.match(new TextDecoder().decode(head.subarray(0, n ?? 0)), /^HTTP\/1\.1 421 /);
});
