import assert from "node:assert/strict";
import { join } from "node:path";
import { Secret } from "../../core/base/mod.ts";
import { type ByteConn, proxyBaseUrl, startTls } from "../../proxy/mod.ts";
import { recordingDial, SECRET, startProxy, type UpstreamCall } from "../support/proxy.ts";

const HAS_OPENSSL = await new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" })
  .output()
  .then((o) => o.success, () => false);

/** A certificate authority made for this run, and a certificate it signed for api.openai.com. */
async function testCertificates(): Promise<{ ca: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-proxy-tls-" });
  const openssl = async (...args: string[]) => {
    const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
      .output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
    await openssl(
      "req",
      "-x509",
      ...ec,
      "-days",
      "1",
      "-subj",
      "/CN=Link test CA",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
    );
    await openssl("req", ...ec, "-subj", "/CN=api.openai.com", "-keyout", "leaf.key", "-out", "leaf.csr");
    await Deno.writeTextFile(
      join(dir, "leaf.ext"),
      "subjectAltName=DNS:api.openai.com\nbasicConstraints=CA:FALSE\n",
    );
    await openssl(
      ...["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"],
      ...["-days", "1", "-extfile", "leaf.ext", "-out", "leaf.pem"],
    );
    const [ca, cert, key] = await Promise.all(
      ["ca.pem", "leaf.pem", "leaf.key"].map((f) => Deno.readTextFile(join(dir, f))),
    );
    return { ca: ca!, cert: cert!, key: key! };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const KEYS = [{
  host: "api.openai.com",
  header: "authorization",
  value: new Secret("sk-real"),
  placeholder: "placeholder",
}];

Deno.test({
  name: `serveProxy() speaks TLS upstream, verified for the name, with the real key inside it (SBX-16)${
    HAS_OPENSSL ? "" : " (ignored: needs openssl to make a certificate)"
  }`,
  ignore: !HAS_OPENSSL,
}, async () => {
  const { ca, cert, key } = await testCertificates();
  const calls: UpstreamCall[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      calls.push({
        method: req.method,
        path: url.pathname,
        headers: Object.fromEntries(req.headers),
        body: await req.text(),
      });
      return new Response("over tls");
    },
  );
  const { dialled, dial } = recordingDial(server.addr.port);
  // Deno.startTls as in production, but trusting this run's authority.
  const trusting = (conn: ByteConn, hostname: string) =>
    Deno.startTls(conn as Deno.TcpConn, { hostname, caCerts: [ca] });
  await using trusted = await startProxy({ dial, keys: KEYS, startTls: trusting });
  const res = await fetch(proxyBaseUrl(trusted.port!, SECRET, "https://api.openai.com/v1/models"), {
    headers: { authorization: "Bearer placeholder" },
  });
  assert.deepEqual([res.status, await res.text()], [200, "over tls"]);
  assert.deepEqual(calls.map((c) => [c.path, c.headers.authorization, c.headers.host]), [
    ["/v1/models", "Bearer sk-real", "api.openai.com"],
  ]);
  // With the system's roots, as in production, the server is refused before any byte of the request.
  await using strict = await startProxy({ dial, keys: KEYS, startTls });
  const refused = await fetch(proxyBaseUrl(strict.port!, SECRET, "https://api.openai.com/v1/models"), {
    headers: { authorization: "Bearer placeholder" },
  });
  assert.deepEqual([refused.status, refused.headers.get("link-refused")], [502, "upstream-failed"]);
  await refused.body?.cancel();
  assert.deepEqual([calls.length, dialled], [1, [["104.18.7.192", 443], ["104.18.7.192", 443]]]);
});
