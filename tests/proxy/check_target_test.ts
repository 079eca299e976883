import assert from "node:assert/strict";
import { checkTarget, compileTargetRules, ProxyPolicy, type RefusalReason } from "../../proxy/mod.ts";

/** A resolver the test controls: records every name asked, answers from a table, never sends a packet. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = (name: string) => {
    asked.push(name);
    const found = table[name];
    return found ? Promise.resolve(found) : Promise.reject(new Error(`no such name "${name}"`));
  };
  return { asked, resolve };
}

const DNS: Record<string, string[]> = {
  "api.openai.com": ["104.18.7.192", "2606:4700::6812:7c0"],
  "example.com": ["93.184.216.34"],
  "github.com": ["140.82.121.4"],
  "rebound.example": ["127.0.0.1"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "private.example": ["10.0.0.5"],
  "mixed.example": ["93.184.216.34", "192.168.1.10"],
  "metadata.example": ["169.254.169.254"],
  "linklocal6.example": ["fe80::1"],
  "nas.local": ["192.168.1.20"],
  "nas-loop.local": ["127.0.0.1"],
  "self.example": ["93.184.215.14"],
  "odd.example": ["not-an-address"],
};

const MACHINE = { localNetworks: ["93.184.215.14/24", "127.0.0.1/8"], machineNames: ["linkbox"] };

function rules(policy: Partial<ProxyPolicy> = {}) {
  return compileTargetRules(ProxyPolicy.parse(policy), MACHINE);
}

async function reasonFor(host: string, port: number, policy: Partial<ProxyPolicy> = {}) {
  const { resolve } = fakeResolver(DNS);
  const decision = await checkTarget(rules(policy), host, port, resolve);
  return decision.ok ? "allowed" : decision.refusal.reason;
}

const REFUSALS: [label: string, host: string, port: number, reason: RefusalReason][] = [
  ["loopback", "127.0.0.1", 443, "address-forbidden"],
  ["loopback, another address of 127/8", "127.8.9.10", 80, "address-forbidden"],
  ["loopback, short form", "127.1", 443, "address-forbidden"],
  ["loopback, decimal", "2130706433", 443, "address-forbidden"],
  ["loopback, hex", "0x7f000001", 443, "address-forbidden"],
  ["loopback, dotted hex", "0x7f.1", 443, "address-forbidden"],
  ["loopback, octal", "0177.0.0.1", 443, "address-forbidden"],
  ["loopback, trailing dot", "127.0.0.1.", 443, "address-forbidden"],
  ["IPv6 loopback, bracketed", "[::1]", 443, "address-forbidden"],
  ["IPv6 loopback, full form", "[0:0:0:0:0:0:0:1]", 443, "address-forbidden"],
  ["IPv4-mapped IPv6 loopback", "[::ffff:127.0.0.1]", 22, "address-forbidden"],
  ["IPv4-mapped IPv6 loopback, hex", "[::ffff:7f00:1]", 443, "address-forbidden"],
  ["IPv4-mapped IPv6 loopback, unbracketed", "::ffff:127.0.0.1", 443, "address-forbidden"],
  ["NAT64 of loopback", "[64:ff9b::127.0.0.1]", 443, "address-forbidden"],
  ["NAT64 of private", "[64:ff9b::10.0.0.1]", 443, "address-forbidden"],
  ["IPv4-compatible IPv6", "[::127.0.0.1]", 443, "address-forbidden"],
  ["unspecified 0.0.0.0", "0.0.0.0", 443, "address-forbidden"],
  ["unspecified, single zero", "0", 443, "address-forbidden"],
  ["IPv6 unspecified", "[::]", 443, "address-forbidden"],
  ["this network 0.0.0.0/8", "0.1.2.3", 443, "address-forbidden"],
  ["private RFC 1918 10/8", "10.0.0.1", 443, "address-forbidden"],
  ["private RFC 1918 172.16/12", "172.16.5.4", 443, "address-forbidden"],
  ["private RFC 1918 192.168/16", "192.168.1.1", 80, "address-forbidden"],
  ["private, decimal", "3232235777", 443, "address-forbidden"],
  ["private, IPv4-mapped", "[::ffff:192.168.0.1]", 443, "address-forbidden"],
  ["CGNAT 100.64/10", "100.64.0.1", 443, "address-forbidden"],
  ["link-local (cloud metadata)", "169.254.169.254", 80, "address-forbidden"],
  ["IPv6 link-local fe80::/10", "[fe80::1]", 443, "address-forbidden"],
  ["ULA fc00::/7", "[fd00::1]", 443, "address-forbidden"],
  ["multicast 224/4", "224.0.0.1", 443, "address-forbidden"],
  ["IPv6 multicast ff00::/8", "[ff02::1]", 443, "address-forbidden"],
  ["broadcast", "255.255.255.255", 443, "address-forbidden"],
  ["reserved 240/4", "240.0.0.1", 443, "address-forbidden"],
  ["documentation TEST-NET-1", "192.0.2.1", 443, "address-forbidden"],
  ["documentation TEST-NET-2", "198.51.100.1", 443, "address-forbidden"],
  ["documentation TEST-NET-3", "203.0.113.1", 443, "address-forbidden"],
  ["IPv6 documentation 2001:db8::/32", "[2001:db8::1]", 443, "address-forbidden"],
  ["benchmarking 198.18/15", "198.18.0.1", 443, "address-forbidden"],
  ["Teredo 2001::/32", "[2001::1]", 443, "address-forbidden"],
  ["6to4 2002::/16", "[2002:7f00:1::]", 443, "address-forbidden"],
  ["IPv6 site-local fec0::/10", "[fec0::1]", 443, "address-forbidden"],
  ["IPv6 outside global unicast", "[4000::1]", 443, "address-forbidden"],
  ["this machine's own address", "93.184.215.14", 443, "address-forbidden"],
  ["this machine's network", "93.184.215.99", 443, "address-forbidden"],
  ["name resolving to loopback (DNS rebinding)", "rebound.example", 443, "address-forbidden"],
  ["name resolving to IPv4-mapped loopback", "mapped.example", 443, "address-forbidden"],
  ["name resolving to private", "private.example", 443, "address-forbidden"],
  ["name with one private address among public ones", "mixed.example", 443, "address-forbidden"],
  ["name resolving to link-local", "metadata.example", 80, "address-forbidden"],
  ["name resolving to IPv6 link-local", "linklocal6.example", 443, "address-forbidden"],
  ["name resolving to this machine's own address", "self.example", 443, "address-forbidden"],
  ["localhost", "localhost", 443, "name-forbidden"],
  ["localhost, upper case with trailing dot", "LOCALHOST.", 443, "name-forbidden"],
  ["a subdomain of localhost", "api.localhost", 443, "name-forbidden"],
  ["localhost.localdomain", "localhost.localdomain", 80, "name-forbidden"],
  ["ip6-localhost", "ip6-localhost", 443, "name-forbidden"],
  ["this machine's host name", "linkbox", 443, "name-forbidden"],
  ["a zone id", "fe80::1%eth0", 443, "invalid-host"],
  ["a percent-encoded host", "%31%32%37.0.0.1", 443, "invalid-host"],
  ["a broken address", "1.2.3.256", 443, "invalid-host"],
  ["a host with a space", "exa mple.com", 443, "invalid-host"],
  ["an unclosed bracket", "[::1", 443, "invalid-host"],
  ["port 0", "example.com", 0, "invalid-host"],
  ["a port outside 80 and 443", "example.com", 8080, "port-not-allowed"],
  ["SSH to an ungranted host", "gitlab.com", 22, "port-not-allowed"],
  ["a name whose lookup fails", "nowhere.example", 443, "resolve-failed"],
  ["a name resolving to no address", "odd.example", 443, "resolve-failed"],
];

for (const [label, host, port, reason] of REFUSALS) {
  Deno.test(`checkTarget() refuses ${label}: "${host}:${port}" (${reason})`, async () => {
    assert.equal(await reasonFor(host, port), reason);
  });
}

Deno.test("checkTarget() allows a public address in any spelling, dialling its plain IPv4 form", async () => {
  const { resolve, asked } = fakeResolver(DNS);
  const r = rules();
  const routes = await Promise.all(
    ["1.1.1.1", "16843009", "[::ffff:1.1.1.1]", "[2606:4700:4700::1111]"].map((h) =>
      checkTarget(r, h, 443, resolve)
    ),
  );
  assert.deepEqual(routes, [
    { ok: true, route: { host: "1.1.1.1", address: "1.1.1.1", port: 443 } },
    { ok: true, route: { host: "1.1.1.1", address: "1.1.1.1", port: 443 } },
    { ok: true, route: { host: "::ffff:101:101", address: "1.1.1.1", port: 443 } },
    { ok: true, route: { host: "2606:4700:4700::1111", address: "2606:4700:4700::1111", port: 443 } },
  ]);
  assert.deepEqual(asked, []);
});

Deno.test("checkTarget() resolves a granted name once and returns its first checked address", async () => {
  const { resolve, asked } = fakeResolver(DNS);
  const decision = await checkTarget(rules(), "API.OpenAI.com.", 443, resolve);
  assert.deepEqual(decision, {
    ok: true,
    route: { host: "api.openai.com", address: "104.18.7.192", port: 443 },
  });
  assert.deepEqual(asked, ["api.openai.com"]);
});

Deno.test("checkTarget() never resolves a name outside the hosts (host-not-allowed, SBX-12)", async () => {
  const { resolve, asked } = fakeResolver(DNS);
  const r = rules({ hosts: ["api.openai.com"] });
  const decisions = await Promise.all([
    checkTarget(r, "example.com", 443, resolve),
    checkTarget(r, "rebound.example", 443, resolve),
    checkTarget(r, "93.184.216.34", 443, resolve),
  ]);
  assert.deepEqual(decisions.map((d) => (d.ok ? "allowed" : d.refusal.reason)), [
    "host-not-allowed",
    "host-not-allowed",
    "host-not-allowed",
  ]);
  assert.deepEqual(asked, []);
});

Deno.test("checkTarget() matches *.example.com to its subdomains only", async () => {
  const policy = { hosts: ["*.example.com"] };
  DNS["a.b.example.com"] = ["93.184.216.40"];
  assert.deepEqual(
    [
      await reasonFor("a.b.example.com", 443, policy),
      await reasonFor("example.com", 443, policy),
      await reasonFor("badexample.com", 443, policy),
    ],
    ["allowed", "host-not-allowed", "host-not-allowed"],
  );
});

Deno.test("checkTarget() lets a tcp grant reach only its port (SBX-11)", async () => {
  const policy = { tcp: ["github.com:22"] };
  assert.deepEqual(
    [
      await reasonFor("github.com", 22, policy),
      await reasonFor("github.com", 2222, policy),
      await reasonFor("gitlab.com", 22, policy),
      await reasonFor("github.com", 443, policy),
    ],
    ["allowed", "port-not-allowed", "port-not-allowed", "allowed"],
  );
});

Deno.test("checkTarget() applies a host list and tcp grants both (SBX-11)", async () => {
  const policy = { hosts: ["api.openai.com"], tcp: ["github.com:22"] };
  assert.deepEqual(
    [
      await reasonFor("github.com", 22, policy),
      await reasonFor("github.com", 443, policy),
      await reasonFor("api.openai.com", 443, policy),
      await reasonFor("api.openai.com", 22, policy),
    ],
    ["allowed", "host-not-allowed", "allowed", "port-not-allowed"],
  );
});

Deno.test("checkTarget() reaches this machine only on a [localhost] port, and only by a loopback name or address (GRT-14)", async () => {
  const { resolve } = fakeResolver(DNS);
  // Even granted by name and port, a name that resolves to loopback stays refused.
  const r = rules({ localhostPorts: [11434], tcp: ["rebound.example:11434"] });
  const decisions = await Promise.all(
    [
      ["localhost", 11434],
      ["127.0.0.1", 11434],
      ["[::1]", 11434],
      ["localhost", 11435],
      ["rebound.example", 11434],
    ].map(([h, p]) => checkTarget(r, h as string, p as number, resolve)),
  );
  assert.deepEqual(decisions.map((d) => (d.ok ? d.route.address : d.refusal.reason)), [
    "127.0.0.1",
    "127.0.0.1",
    "::1",
    "name-forbidden",
    "address-forbidden",
  ]);
});

Deno.test("checkTarget() reaches a [lan] host on its network, never a loopback one (SBX-9)", async () => {
  const { resolve } = fakeResolver(DNS);
  const r = rules({ lanHosts: ["nas.local", "nas-loop.local", "192.168.1.30:5000", "93.184.215.99"] });
  const decisions = await Promise.all(
    [
      ["nas.local", 443],
      ["nas.local", 5000],
      ["192.168.1.30", 5000],
      ["192.168.1.30", 80],
      ["192.168.1.31", 80],
      ["nas-loop.local", 443],
      ["93.184.215.99", 443],
      ["93.184.215.14", 443],
    ].map(([h, p]) => checkTarget(r, h as string, p as number, resolve)),
  );
  assert.deepEqual(decisions.map((d) => (d.ok ? d.route.address : d.refusal.reason)), [
    "192.168.1.20",
    "port-not-allowed",
    "192.168.1.30",
    "192.168.1.30",
    "address-forbidden",
    "address-forbidden",
    "93.184.215.99",
    "address-forbidden",
  ]);
});

Deno.test("checkTarget() refusals name the target and never the resolver's other answers", async () => {
  const { resolve } = fakeResolver(DNS);
  const decision = await checkTarget(rules(), "mixed.example", 443, resolve);
  assert.deepEqual(decision, {
    ok: false,
    refusal: {
      reason: "address-forbidden",
      message:
        'Cannot reach "mixed.example:443": its name resolves to 192.168.1.10, which is on your local network (private (RFC 1918))',
      hint: "Run `lnk agent allow --lan-host <host>` to let the agent reach a host of your network",
    },
  });
});

Deno.test("compileTargetRules() refuses a granted host that is no host", () => {
  assert.throws(() => rules({ hosts: ["exa mple.com"] }), { name: "LinkError", code: "CONFIG_INVALID" });
});

Deno.test("a registry the person named is reached at its exact host and port wherever it resolves; every other private address stays refused (ADP-9)", async () => {
  const table = { ...DNS, "mirror.corp": ["203.0.113.7"], "npm.corp": ["10.0.0.5"] };
  const check = async (host: string, port: number, policy: Partial<ProxyPolicy>) => {
    const decision = await checkTarget(rules(policy), host, port, fakeResolver(table).resolve);
    return decision.ok ? decision.route : decision.refusal.reason;
  };
  const mirrored = {
    hosts: ["mirror.corp", "npm.corp", "private.example"],
    registries: ["mirror.corp:4873"],
  };
  assert.deepEqual(await check("mirror.corp", 4873, mirrored), {
    host: "mirror.corp",
    address: "203.0.113.7",
    port: 4873,
  });
  assert.equal(await check("mirror.corp", 443, mirrored), "address-forbidden");
  assert.equal(await check("npm.corp", 443, mirrored), "address-forbidden");
  assert.equal(await check("private.example", 443, mirrored), "address-forbidden");
  assert.equal(await check("mirror.corp", 4873, { hosts: ["mirror.corp"] }), "port-not-allowed"); // not named: as ever
  // A registry by its address, the loopback's too (a mirror on this machine).
  assert.deepEqual(await check("127.0.0.2", 4873, { hosts: ["127.0.0.2"], registries: ["127.0.0.2:4873"] }), {
    host: "127.0.0.2",
    address: "127.0.0.2",
    port: 4873,
  });
  assert.equal(
    await check("127.0.0.2", 4874, { hosts: ["127.0.0.2"], registries: ["127.0.0.2:4873"] }),
    "address-forbidden",
  );
});
