import assert from "node:assert/strict";
import { Secret } from "../../core/base/mod.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../../sandbox/mod.ts";
import { newProxySecret, proxyBaseUrl, proxyPolicyFrom } from "../../proxy/mod.ts";

Deno.test("proxyPolicyFrom() gives a new agent any public host on 443 and 80, and nothing of this machine (SBX-12)", () => {
  assert.deepEqual(proxyPolicyFrom(parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml")), {
    hosts: ["*"],
    tcp: [],
    lanHosts: [],
    localhostPorts: [],
    registries: [], // a sandbox file names none: only an install step's proxy is given the person's
  });
});

Deno.test("proxyPolicyFrom() takes [internet], [lan] and [localhost] from the sandbox file (SBX-9, SBX-11, GRT-14)", () => {
  const spec = parseSandboxSpec(
    `[internet]\nhosts = ["api.openai.com", "*.github.com"]\ntcp = ["github.com:22"]\n` +
      `[lan]\nhosts = ["nas.local"]\n[localhost]\nports = [11434]\n`,
    "sandbox.toml",
  );
  assert.deepEqual(proxyPolicyFrom(spec), {
    hosts: ["api.openai.com", "*.github.com"],
    tcp: ["github.com:22"],
    lanHosts: ["nas.local"],
    localhostPorts: [11434],
    registries: [],
  });
});

Deno.test("newProxySecret() makes a different URL-safe secret at each start (SBX-19)", () => {
  const [a, b] = [newProxySecret(), newProxySecret()];
  assert.match(a.reveal(), /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a.reveal(), b.reveal());
  assert.equal(String(a), "[redacted]");
});

Deno.test("proxyBaseUrl() puts the secret, scheme and host in the path", () => {
  const secret = new Secret("s3cret");
  assert.deepEqual(
    [
      proxyBaseUrl(8123, secret, "https://api.openai.com/v1"),
      proxyBaseUrl(8123, secret, "https://api.openai.com"),
      proxyBaseUrl(8123, secret, "http://example.com:8080/a?b=c"),
    ],
    [
      "http://127.0.0.1:8123/_link/s/s3cret/https/api.openai.com/v1",
      "http://127.0.0.1:8123/_link/s/s3cret/https/api.openai.com",
      "http://127.0.0.1:8123/_link/s/s3cret/http/example.com:8080/a?b=c",
    ],
  );
});
