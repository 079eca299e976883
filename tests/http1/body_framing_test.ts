import assert from "node:assert/strict";
import {
  type BodyFraming,
  contentLength,
  type Header,
  requestFraming,
  responseFraming,
  transferCodings,
} from "../../http1/mod.ts";

const LENGTH_3: Header = ["Content-Length", "3"];
const CHUNKED: Header = ["Transfer-Encoding", "chunked"];

Deno.test("requestFraming() frames a request by chunked, by length, or as none, and CONNECT as none (RFC 9112 §6.3)", () => {
  const frame = (method: string, headers: Header[], version: "HTTP/1.0" | "HTTP/1.1" = "HTTP/1.1") =>
    requestFraming({ method, target: "/", version, headers });
  assert.deepEqual<BodyFraming[]>([
    frame("POST", [CHUNKED]),
    frame("POST", [["Transfer-Encoding", "gzip, chunked"]]),
    frame("POST", [LENGTH_3]),
    frame("POST", [["Content-Length", "0"]]),
    frame("POST", []),
    frame("GET", [], "HTTP/1.0"),
    frame("CONNECT", [LENGTH_3]),
  ], [
    { kind: "chunked" },
    { kind: "chunked" },
    { kind: "length", length: 3 },
    { kind: "length", length: 0 },
    { kind: "none" },
    { kind: "none" },
    { kind: "none" },
  ]);
});

Deno.test("responseFraming() frames a response by the request's method, its status, and its fields (RFC 9112 §6.3)", () => {
  const frame = (status: number, headers: Header[], method = "GET") =>
    responseFraming({ version: "HTTP/1.1", status, reason: "", headers }, method);
  assert.deepEqual<BodyFraming[]>([
    frame(200, [LENGTH_3], "HEAD"),
    frame(100, []),
    frame(103, [LENGTH_3]),
    frame(204, [LENGTH_3]),
    frame(304, [LENGTH_3]),
    frame(101, [["Upgrade", "websocket"]]),
    frame(101, [], "HEAD"),
    frame(200, [], "CONNECT"),
    frame(299, [LENGTH_3], "CONNECT"),
    frame(407, [LENGTH_3], "CONNECT"),
    frame(200, [CHUNKED]),
    frame(200, [["Transfer-Encoding", "gzip"]]),
    frame(200, [LENGTH_3]),
    frame(200, []),
  ], [
    { kind: "none" },
    { kind: "none" },
    { kind: "none" },
    { kind: "none" },
    { kind: "none" },
    { kind: "tunnel" },
    { kind: "tunnel" },
    { kind: "tunnel" },
    { kind: "tunnel" },
    { kind: "length", length: 3 },
    { kind: "chunked" },
    { kind: "close" },
    { kind: "length", length: 3 },
    { kind: "close" },
  ]);
});

Deno.test("transferCodings() lists the codings lowercase in the order applied, over every field", () => {
  assert.deepEqual(transferCodings([]), []);
  assert.deepEqual(
    transferCodings([["Transfer-Encoding", 'GZIP ;q="a,b"'], [
      "transfer-encoding",
      " , x-custom; a=b , Chunked",
    ]]),
    ["gzip", "x-custom", "chunked"],
  );
});

Deno.test("contentLength() reads one length, repeated or not, and none when no field gives one", () => {
  assert.deepEqual(
    [[], [LENGTH_3], [["Content-Length", " 3 , 3 "], ["content-length", "3"]]].map((h) =>
      contentLength(h as Header[])
    ),
    [undefined, 3, 3],
  );
  assert.equal(contentLength([["Content-Length", "999999999999999"]]), 999_999_999_999_999);
});
