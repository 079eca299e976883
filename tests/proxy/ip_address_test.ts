import assert from "node:assert/strict";
import { classifyAddress } from "../../proxy/address_range.ts";
import { formatIp, parseIpv4, parseIpv6 } from "../../proxy/ip_address.ts";
import { parseTargetHost } from "../../proxy/target_host.ts";

const v4 = (text: string) => {
  const ip = parseIpv4(text);
  return ip ? formatIp(ip) : ip;
};

Deno.test("parseIpv4() reads every inet_aton spelling of an address (SBX-8)", () => {
  assert.deepEqual(
    [
      "127.0.0.1",
      "127.1",
      "127.0.1",
      "2130706433",
      "0x7f000001",
      "0x7f.1",
      "0177.0.0.1",
      "0177.1",
      "127.0.0.1.",
      "0x7F.0.0.0x1",
    ]
      .map(v4),
    Array(10).fill("127.0.0.1"),
  );
  assert.deepEqual([v4("0"), v4("0x"), v4("10.0x10.010.1")], ["0.0.0.0", "0.0.0.0", "10.16.8.1"]);
});

Deno.test("parseIpv4() tells a name from a broken address", () => {
  assert.deepEqual(
    ["example.com", "1.2.3.0x1g", "256.1.1.1", "1.2.3.4.5", "08.1.1.1", "4294967296", "a.b.1", "1.256.0"].map(
      v4,
    ),
    [undefined, undefined, null, null, null, null, null, null],
  );
});

Deno.test("parseIpv6() reads compressed, full and IPv4-tailed forms, and formatIp() writes RFC 5952", () => {
  const six = (text: string) => {
    const ip = parseIpv6(text);
    return ip ? formatIp(ip) : ip;
  };
  assert.deepEqual(
    [
      "::1",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "2606:4700:4700::1111",
      "64:ff9b::10.0.0.1",
      "1::",
      "::",
      "1:0:0:2:0:0:0:3",
    ].map(six),
    [
      "::1",
      "::1",
      "::ffff:7f00:1",
      "::ffff:7f00:1",
      "2606:4700:4700::1111",
      "64:ff9b::a00:1",
      "1::",
      "::",
      "1:0:0:2::3",
    ],
  );
  assert.deepEqual(
    ["1:::2", "1:2:3:4:5:6:7:8:9", "::ffff:0127.0.0.1", "fe80::1%eth0", "g::1", "1::2::3"].map(six),
    [
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ],
  );
});

Deno.test("classifyAddress() dials an IPv4-mapped address as IPv4 and judges NAT64 by what it embeds", () => {
  const judge = (text: string) => {
    const r = classifyAddress(parseIpv6(text)!);
    return [r.kind, r.range, formatIp(r.dial)];
  };
  assert.deepEqual(judge("::ffff:1.1.1.1"), ["public", "public", "1.1.1.1"]);
  assert.deepEqual(judge("::ffff:10.1.2.3"), ["lan", "private (RFC 1918)", "10.1.2.3"]);
  assert.deepEqual(judge("64:ff9b::1.1.1.1"), ["public", "public", "64:ff9b::101:101"]);
  assert.deepEqual(judge("64:ff9b::127.0.0.1"), ["forbidden", "NAT64 of loopback", "64:ff9b::7f00:1"]);
  assert.deepEqual(judge("2606:4700::1111"), ["public", "public", "2606:4700::1111"]);
});

Deno.test("parseTargetHost() drops brackets, case and a trailing dot, and refuses what is no host", () => {
  const read = (raw: string) => {
    const host = parseTargetHost(raw);
    return host === undefined ? undefined : host.kind === "ip" ? `ip ${host.text}` : `name ${host.name}`;
  };
  assert.deepEqual(
    [
      "Example.COM.",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "127.1",
      "bücher.example",
      "１２７.０.０.１",
      "a_b.example.com",
    ].map(read),
    [
      "name example.com",
      "ip ::1",
      "ip ::ffff:7f00:1",
      "ip 127.0.0.1",
      "name xn--bcher-kva.example",
      "ip 127.0.0.1",
      "name a_b.example.com",
    ],
  );
  assert.deepEqual(
    [
      "",
      ".",
      "a..b",
      "[::1",
      "evil.com/x",
      "a b",
      "%31%32%37.0.0.1",
      "fe80::1%25eth0",
      "example.123",
      "-a.com",
    ].map(read),
    Array(10).fill(undefined),
  );
});
