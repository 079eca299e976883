import assert from "node:assert/strict";
import { htmlToText, toProxyUrl } from "../../../../core/harness/tools/mod.ts";

Deno.test("htmlToText() drops scripts and styles, keeps headings, lists, links and entities", () => {
  const html = `<html><head><title>T</title><script>x()</script></head><body>
    <!-- hidden --><h2>Part&nbsp;one</h2><p>a&lt;b &#233; &#x41;</p><br>
    <a href="#top">top</a> <a href="mailto:a@b.c">mail</a> <a href='javascript:x()'>js</a>
    <table><tr><td>c1</td><td>c2</td></tr></table><noscript>no</noscript></body></html>`;
  assert.equal(
    htmlToText(html, "https://x.test/a/"),
    "# T\n\n## Part one\n\na<b é A\n\ntop [mail](mailto:a@b.c) js\n\nc1 c2",
  );
});

Deno.test("toProxyUrl() puts scheme, host and path after the proxy's base URL (SBX-19)", () => {
  const base = "http://127.0.0.1:4000/_link/s/abc/";
  assert.equal(toProxyUrl(new URL("https://h.test/p/q?x=1"), base), `${base}https/h.test/p/q?x=1`);
  assert.equal(toProxyUrl(new URL("http://h.test:8080"), base.slice(0, -1)), `${base}http/h.test:8080/`);
  assert.equal(toProxyUrl(new URL("https://h.test/p"), undefined), "https://h.test/p");
});
