import assert from "node:assert/strict";
import { join } from "node:path";
import { proxyEnv, proxyUrl } from "../../proxy/mod.ts";
import {
  fakeUpstream,
  rawExchange,
  recordingDial,
  SECRET,
  startProxy,
  statusAndReason,
} from "../support/proxy.ts";

Deno.test("serveProxy() listens on a unix socket only its user may open, and removes it when stopped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-proxy-" });
  try {
    await using upstream = fakeUpstream(() => new Response("through the socket"));
    const { dialled, dial } = recordingDial(upstream.port);
    const path = join(dir, ".net", "a1", "proxy.sock");
    const proxy = await startProxy({ path, hostPort: 18080, dial });
    assert.deepEqual([proxy.addr, proxy.port], [{ transport: "unix", path }, undefined]);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    const request = (host: string) =>
      `GET /_link/s/${SECRET.reveal()}/https/example.com/page HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    const ok = await rawExchange({ transport: "unix", path }, request("127.0.0.1:18080"));
    assert.deepEqual([statusAndReason(ok)[0], ok.slice(ok.indexOf("\r\n\r\n") + 4)], [
      "HTTP/1.1 200 OK",
      "through the socket",
    ]);
    const wrongPort = await rawExchange({ transport: "unix", path }, request("127.0.0.1:18081"));
    assert.deepEqual(statusAndReason(wrongPort), ["HTTP/1.1 403 Forbidden", "wrong-host"]);
    assert.deepEqual(dialled, [["93.184.216.34", 443]]);
    await proxy.close();
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveProxy() replaces a stale socket but never a live proxy's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-proxy-" });
  try {
    const path = join(dir, "proxy.sock");
    Deno.listen({ transport: "unix", path }).close();
    await using first = await startProxy({ path });
    await assert.rejects(startProxy({ path }), { name: "LinkError", code: "SERVICE_FAILED" });
    assert.equal(first.addr.transport, "unix");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("proxyEnv() sets every proxy variable in both cases and leaves NO_PROXY empty", () => {
  const url = proxyUrl(8123, SECRET);
  assert.equal(url, `http://link:${SECRET.reveal()}@127.0.0.1:8123`);
  assert.deepEqual(proxyEnv(url), {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: "",
    no_proxy: "",
  });
});

const HAS_CURL = await new Deno.Command("curl", { args: ["--version"], stdout: "null", stderr: "null" })
  .output()
  .then((o) => o.success, () => false);

Deno.test({
  name: `proxyEnv() lets a standard program (curl) use the proxy with the secret${
    HAS_CURL ? "" : " (ignored: needs curl)"
  }`,
  ignore: !HAS_CURL,
}, async () => {
  await using upstream = fakeUpstream(() => new Response("hello curl"));
  const { dialled, dial } = recordingDial(upstream.port);
  await using proxy = await startProxy({ dial });
  const run = async (env: Record<string, string>) => {
    const out = await new Deno.Command("curl", {
      args: ["-s", "-S", "-w", " %{http_code}", "http://example.com/greeting"],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout);
  };
  assert.equal(await run(proxyEnv(proxyUrl(proxy.port!, SECRET))), "hello curl 200");
  const refused = await run(proxyEnv(`http://link:wrong@127.0.0.1:${proxy.port}`));
  assert.match(refused, /^Link's proxy refused the request: .* 407$/s);
  assert.deepEqual(dialled, [["93.184.216.34", 80]]);
  assert.deepEqual(upstream.calls.map((c) => [c.path, c.headers.host]), [["/greeting", "example.com"]]);
});
