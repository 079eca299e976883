/**
 * The HTTP/1.1 grammar's one suite of malformed inputs (RFC 9112). Each input is refused as
 * Http1Malformed both ways the module reads: pulled from a connection (as the proxy, Link's
 * client and the endpoint's server read) and fed as bytes pass (as the door's framing watch
 * reads), whole, byte by byte, and split in two at every offset. What one reader took and another
 * refused is how requests are smuggled; here none takes any.
 */
import assert from "node:assert/strict";
import { pullMessages, pushMessages, splits, wire } from "./_support.ts";

interface Case {
  /** What the input tries. */
  attack: string;
  kind: "request" | "response";
  text: string;
}

const GET = "GET / HTTP/1.1\r\nHost: a\r\n";
const OK = "HTTP/1.1 200 OK\r\n";
const CHUNKED = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
const request = (attack: string, text: string): Case => ({ attack, kind: "request", text });
const response = (attack: string, text: string): Case => ({ attack, kind: "response", text });
const chunk = (attack: string, body: string): Case => request(attack, CHUNKED + body);

const CASES: Case[] = [
  // Line ends (§2.2).
  request("a bare CR ending the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
  request("a bare CR inside a field value", `${GET}X: a\rb\r\n\r\n`),
  request("a bare CR before the blank line", `${GET}\r\r\n`),
  request("a lone LF ending a field line", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n"),
  request("lone LF line ends throughout", "GET / HTTP/1.1\nHost: a\n\n"),
  response("lone LF line ends in a response", "HTTP/1.1 200 OK\nContent-Length: 1\n\nx"),
  // The request line (§3).
  request("HTTP/2.0 in a request line", "GET / HTTP/2.0\r\n\r\n"),
  request("HTTP/1.2 in a request line", "GET / HTTP/1.2\r\n\r\n"),
  request("a version in lowercase", "GET / http/1.1\r\n\r\n"),
  request("a request line without a version (HTTP/0.9)", "GET /\r\n\r\n"),
  request("two spaces after the method", "GET  / HTTP/1.1\r\n\r\n"),
  request("a tab for the space after the method", "GET\t/ HTTP/1.1\r\n\r\n"),
  request("a space after the version", "GET / HTTP/1.1 \r\n\r\n"),
  request("a space before the method", " GET / HTTP/1.1\r\n\r\n"),
  request("a method with a character no token has", "G(T / HTTP/1.1\r\n\r\n"),
  request("a control character in the target", "GET /a\x01b HTTP/1.1\r\n\r\n"),
  request("a byte above 0x7E in the target", "GET /caf\xe9 HTTP/1.1\r\n\r\n"),
  request("a TLS hello on the plain port", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"),
  request("a NUL before the request line", "\x00GET / HTTP/1.1\r\n\r\n"),
  request("Host given twice (§3.2)", `${GET}Host: b\r\n\r\n`),
  // Field lines (§5).
  request("obs-fold: a field line folded onto the one before", `${GET}X: a\r\n b\r\n\r\n`),
  request("obs-fold with a tab", `${GET}X: a\r\n\tb\r\n\r\n`),
  request(
    "obs-fold hiding chunked",
    `POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n ,chunked\r\n\r\n0\r\n\r\n`,
  ),
  request("whitespace between a field name and its colon", `${GET}Content-Length : 0\r\n\r\n`),
  request("a tab between a field name and its colon", `${GET}Content-Length\t: 0\r\n\r\n`),
  request("a field line with no colon", `${GET}NoColon\r\n\r\n`),
  request("an empty field name", `${GET}: value\r\n\r\n`),
  request("a field name with a character no token has", `${GET}X(y): z\r\n\r\n`),
  request("a NUL in a field value", `${GET}X: a\x00b\r\n\r\n`),
  request("a DEL in a field value", `${GET}X: a\x7fb\r\n\r\n`),
  request(
    "a vertical tab before chunked",
    "POST / HTTP/1.1\r\nTransfer-Encoding: \x0bchunked\r\n\r\n0\r\n\r\n",
  ),
  response("obs-fold in a response", `${OK}X: a\r\n b\r\nContent-Length: 0\r\n\r\n`),
  response("whitespace before a response field's colon", `${OK}Content-Length : 0\r\n\r\n`),
  // Limits.
  request("a request line longer than 16 KiB", `GET /${"a".repeat(16 * 1024)} HTTP/1.1\r\n\r\n`),
  request("a field line longer than 16 KiB", `${GET}X: ${"a".repeat(16 * 1024)}\r\n\r\n`),
  request("a head larger than 64 KiB", `${GET}${`X: ${"a".repeat(8000)}\r\n`.repeat(9)}\r\n`),
  request("201 field lines", `GET / HTTP/1.1\r\n${"X: a\r\n".repeat(201)}\r\n`),
  request("empty lines before a request line past the head's limit", `${"\r\n".repeat(33_000)}${GET}\r\n`),
  // Framing (§6).
  request(
    "request smuggling: Content-Length with Transfer-Encoding (CL.TE)",
    "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  ),
  request(
    "request smuggling: Transfer-Encoding with Content-Length (TE.CL)",
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
  ),
  request(
    "two Content-Length fields that disagree",
    `${GET}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`,
  ),
  request("a Content-Length list that disagrees", `${GET}Content-Length: 3, 4\r\n\r\nabcd`),
  request("a Content-Length list of one number in two spellings", `${GET}Content-Length: 5, 05\r\n\r\nhello`),
  request("a Content-Length list with an empty element", `${GET}Content-Length: 5,\r\n\r\nhello`),
  request("a Content-Length with a plus sign", `${GET}Content-Length: +5\r\n\r\nhello`),
  request("a negative Content-Length", `${GET}Content-Length: -1\r\n\r\n`),
  request("a Content-Length in hex", `${GET}Content-Length: 0x5\r\n\r\nhello`),
  request("a Content-Length with a space inside", `${GET}Content-Length: 1 0\r\n\r\n`),
  request("an empty Content-Length", `${GET}Content-Length: \r\n\r\n`),
  request("a Content-Length of 16 digits", `${GET}Content-Length: 1000000000000000\r\n\r\n`),
  request("a last transfer coding other than chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"),
  request(
    "chunked before another coding",
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
  ),
  request("chunked twice", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"),
  request(
    "chunked in two fields",
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  ),
  request("a Transfer-Encoding that names no coding", "POST / HTTP/1.1\r\nTransfer-Encoding: \r\n\r\n"),
  request("a transfer coding that is not a token", "POST / HTTP/1.1\r\nTransfer-Encoding: chun ked\r\n\r\n"),
  request("chunked with a parameter", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n"),
  request(
    "Transfer-Encoding in an HTTP/1.0 request",
    "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  ),
  request(
    "CONNECT with Content-Length and Transfer-Encoding",
    "CONNECT a:443 HTTP/1.1\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
  ),
  // Chunked bodies (§7.1).
  chunk("a chunk size that is not hex", "zz\r\n"),
  chunk("a chunk size written 0x5", "0x5\r\nhello\r\n0\r\n\r\n"),
  chunk("a negative chunk size", "-5\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk size of 13 hex digits", "1000000000000\r\n"),
  chunk("a chunk size padded with zeros past 12 digits", "0000000000005\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk size of 2^64, which an unchecked parseInt reads as a float", "10000000000000000\r\n"),
  chunk("an empty chunk size line", "\r\nhello\r\n0\r\n\r\n"),
  chunk("a space after the chunk size and no extension", "5 \r\nhello\r\n0\r\n\r\n"),
  chunk("a space before the chunk size", " 5\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk size line ended by LF alone", "5\nhello\r\n0\r\n\r\n"),
  chunk("a bare LF in a chunk extension (a funky chunk)", "5;a\nb\r\nhello\r\n0\r\n\r\n"),
  chunk("a bare CR in a chunk extension", "5;a\rb\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk extension that is not a token", "5;a b\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk extension with no name", "5;=b\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk extension whose quoted string does not end", '5;a="b\r\nhello\r\n0\r\n\r\n'),
  chunk("a chunk extension with a control character", "5;a=\x01\r\nhello\r\n0\r\n\r\n"),
  chunk("a chunk size line longer than 4 KiB", `5;${"a".repeat(4 * 1024)}\r\nhello\r\n0\r\n\r\n`),
  chunk("a trailer line longer than 4 KiB", `0\r\nX: ${"a".repeat(4 * 1024)}\r\n\r\n`),
  chunk("chunk data longer than its size", "3\r\nabcd\r\n0\r\n\r\n"),
  chunk("chunk data shorter than its size", "5\r\nabc\r\n0\r\n\r\n"),
  chunk("chunk data ended by LF alone", "3\r\nabc\n0\r\n\r\n"),
  chunk("a trailer folded onto the one before", "0\r\nX: a\r\n b\r\n\r\n"),
  chunk("a trailer with no colon", "0\r\nbad\r\n\r\n"),
  chunk("a trailer with a bare CR", "0\r\nX: a\rb\r\n\r\n"),
  chunk("201 trailers", `0\r\n${"X: a\r\n".repeat(201)}\r\n`),
  chunk("trailers larger than 64 KiB", `0\r\n${`X: ${"a".repeat(4000)}\r\n`.repeat(17)}\r\n`),
  // Responses (§4, §6).
  response("a status code of two digits", "HTTP/1.1 20 OK\r\n\r\n"),
  response("a status code below 100", "HTTP/1.1 099 Odd\r\nContent-Length: 0\r\n\r\n"),
  response("a status line in lowercase", "http/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
  response("HTTP/2 in a status line", "HTTP/2 200\r\n\r\n"),
  response("a control character in the reason", "HTTP/1.1 200 O\x01K\r\nContent-Length: 0\r\n\r\n"),
  response("an empty line before the status line", `\r\n${OK}Content-Length: 0\r\n\r\n`),
  response("another protocol's banner (SSH)", "SSH-2.0-OpenSSH_9.6\r\n"),
  response(
    "response splitting: Content-Length with Transfer-Encoding",
    `${OK}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
  ),
  response("a response's lengths that disagree", `${OK}Content-Length: 2\r\nContent-Length: 3\r\n\r\nabc`),
  response(
    "a response with chunked before another coding",
    `${OK}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`,
  ),
  response(
    "an HTTP/1.0 response with Transfer-Encoding",
    "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  ),
  response("a 204 with lengths that disagree", "HTTP/1.1 204 No Content\r\nContent-Length: 1, 2\r\n\r\n"),
  response(
    "a bad chunk size in a response",
    `${OK}Transfer-Encoding: chunked\r\n\r\n5zz\r\nhello\r\n0\r\n\r\n`,
  ),
];

for (const { attack, kind, text } of CASES) {
  Deno.test(`attack: the HTTP/1.1 grammar refuses ${attack}`, async () => {
    for (const parts of splits(wire(text))) {
      const how = `${parts.length} pieces`;
      await assert.rejects(
        pullMessages(kind, parts),
        { name: "Http1Malformed", ended: false },
        `pulled, ${how}`,
      );
      assert.throws(() => pushMessages(kind, parts), { name: "Http1Malformed" }, `fed, ${how}`);
    }
  });
}

/** Inputs that end early: a reader of a whole message says so (`ended`); bytes fed as they pass are only under way. */
const ENDED: Case[] = [
  request("the connection ends in the middle of a request line", "GET / HT"),
  request("the connection ends in the middle of a head", `${GET}X: a`),
  request("the connection ends before the blank line", GET),
  request(
    "the connection ends in the middle of a body by length",
    `POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhel`,
  ),
  chunk("the connection ends in the middle of a chunk size", "5"),
  chunk("the connection ends in the middle of a chunk", "5\r\nhel"),
  chunk("the connection ends before a chunk's CR LF", "5\r\nhello"),
  chunk("the connection ends before the last chunk", "5\r\nhello\r\n"),
  chunk("the connection ends in the trailers", "0\r\nX: a\r\n"),
  response("the connection ends in the middle of a status line", "HTTP/1.1 20"),
];

for (const { attack, kind, text } of ENDED) {
  Deno.test(`the HTTP/1.1 grammar tells when ${attack}`, async () => {
    for (const parts of splits(wire(text))) {
      const how = `${parts.length} pieces`;
      await assert.rejects(
        pullMessages(kind, parts),
        { name: "Http1Malformed", ended: true },
        `pulled, ${how}`,
      );
      assert.equal(pushMessages(kind, parts).inMessage, true, `fed, ${how}`);
    }
  });
}
