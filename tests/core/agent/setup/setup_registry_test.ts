/**
 * The person's own registry on a private or reserved address (a company mirror), reached by the
 * install step alone (ADP-9, SBX-14): a static fake registry serving one package's metadata and
 * tarball on 127.0.0.2, named by the person's npm config (`npm config get registry`). The install's
 * proxy reaches exactly that host and port; another address of the same kind, the same host at
 * another port, and any later step are refused as ever.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentContext, loadSettings } from "../../../../core/agent/mod.ts";
import { runSetup } from "../../../../core/agent/setup/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";
import { createAgent, homeWithAdapter } from "./_support.ts";

/** A registry of one package: its metadata at /tiny, its tarball at /tiny/-/tiny-1.0.0.tgz. */
function serveRegistry(hostname: string) {
  const hits: string[] = [];
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname, port: 0, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      hits.push(path);
      const base: string = `http://${hostname}:${server.addr.port}`;
      if (path === "/tiny") {
        return Response.json({
          name: "tiny",
          "dist-tags": { latest: "1.0.0" },
          versions: {
            "1.0.0": { name: "tiny", version: "1.0.0", dist: { tarball: `${base}/tiny/-/tiny-1.0.0.tgz` } },
          },
        });
      }
      if (path === "/tiny/-/tiny-1.0.0.tgz") return new Response("the tarball's bytes");
      return new Response("not found", { status: 404 });
    },
  );
  return Object.assign(server, { hits });
}

/** Fetches a URL through the step's proxy, never around it, and writes what came of it. */
const GET = (url: string, file: string) =>
  `echo "$(curl -s -o /dev/null --max-time 20 --noproxy '' -x "$http_proxy" -w '%{http_code}' ${url})" >> "$HOME/${file}"`;

sandboxedTest(
  "the install step reaches the person's registry on a private address, and nothing else of the kind; configure does not (ADP-9, SBX-14)",
  async () => {
    await using registry = serveRegistry("127.0.0.2");
    await using other = serveRegistry("127.0.0.3");
    const at = `127.0.0.2:${registry.addr.port}`;
    const wrong = `127.0.0.2:${other.addr.port}`; // nothing listens there on .2: refused before a dial
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("mirrored", {
      "internet-hosts": `echo '{"hosts":["127.0.0.2","127.0.0.3"]}'`,
      install: [
        `mkdir -p "$HOME/bin"`,
        GET(`http://${at}/tiny`, "install.txt"),
        GET(`http://${at}/tiny/-/tiny-1.0.0.tgz`, "install.txt"),
        GET(`http://127.0.0.3:${other.addr.port}/tiny`, "install.txt"),
        GET(`http://${wrong}/tiny`, "install.txt"),
        `printf '#!/bin/sh\\nexec %s run --allow-env %s\\n' "$DENO" "$ECHO" > "$HOME/bin/agent"; chmod +x "$HOME/bin/agent"`,
        `printf '#!/bin/sh\\necho tool\\n' > "$HOME/bin/tool"; chmod +x "$HOME/bin/tool"`,
        `echo '{"version":"1.0.0","changed":true}'`,
      ].join("; "),
      configure: `${GET(`http://${at}/tiny`, "configure.txt")}; echo '{"changed":true}'`,
    });
    home.env.set("NPM_CONFIG_REGISTRY", `http://${at}/`);
    const id = await createAgent(home, "mirrored", model.url);
    const notes: string[] = [];
    const ctx = agentContext(home.env, { home: home.path });
    const done = await runSetup(ctx, await loadSettings(home.paths, id), { note: (t) => notes.push(t) });
    assert.deepEqual(done.ran.slice(0, 2), ["install", "configure"]);
    assert.equal(
      await Deno.readTextFile(join(home.paths.installDir("mirrored"), "install.txt")),
      "200\n200\n403\n403\n",
    );
    assert.deepEqual(registry.hits, ["/tiny", "/tiny/-/tiny-1.0.0.tgz"]);
    assert.deepEqual(other.hits, []);
    const hh = join(home.paths.agentState(id), "harnesses", "mirrored");
    assert.equal(await Deno.readTextFile(join(hh, "configure.txt")), "403\n");
    assert.deepEqual(notes, [
      `The mirrored install reaches ${at}, the registry your npm uses, at whatever address it resolves to (for the install alone)`,
    ]);
  },
);

sandboxedTest(
  "with no registry of the person's among its hosts, the install step reaches no private address (SBX-14)",
  async () => {
    await using registry = serveRegistry("127.0.0.2");
    const at = `127.0.0.2:${registry.addr.port}`;
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("unmirrored", {
      "internet-hosts": `echo '{"hosts":["127.0.0.2"]}'`,
      install: `mkdir -p "$HOME/bin"; ${GET(`http://${at}/tiny`, "install.txt")}; ` +
        `printf '#!/bin/sh\\nexec %s run --allow-env %s\\n' "$DENO" "$ECHO" > "$HOME/bin/agent"; chmod +x "$HOME/bin/agent"; ` +
        `echo '{"version":"1.0.0","changed":true}'`,
    });
    // The person's npm uses another registry: 127.0.0.2 is only the adapter's word.
    home.env.set("NPM_CONFIG_REGISTRY", `http://127.0.0.9:4873/`);
    const id = await createAgent(home, "unmirrored", model.url);
    const notes: string[] = [];
    await runSetup(agentContext(home.env, { home: home.path }), await loadSettings(home.paths, id), {
      note: (t) => notes.push(t),
    });
    assert.equal(await Deno.readTextFile(join(home.paths.installDir("unmirrored"), "install.txt")), "403\n");
    assert.deepEqual(registry.hits, []);
    assert.deepEqual(notes, []);
  },
);
