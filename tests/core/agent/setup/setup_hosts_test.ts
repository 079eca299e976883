/**
 * Where each setup step of a start reaches (SBX-14, ADP-9, ADP-15), through runSetup as a start
 * runs it, with a stand-in adapter (_support.ts) whose configure and link each fetch the host its
 * `internet-hosts` names and another one: two loopback HTTP servers stand for them, reached by the
 * steps' own proxies through a dialler that connects to them in place of the public addresses it
 * checked. configure reaches only the named host; link reaches any.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentContext, loadSettings } from "../../../../core/agent/mod.ts";
import { runSetup } from "../../../../core/agent/setup/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";
import { createAgent, homeWithAdapter } from "./_support.ts";

const FETCH = (file: string) =>
  `for h in registry.example other.example; do ` +
  `echo "$h $(curl -s -o /dev/null --max-time 20 -w '%{http_code}' http://$h/)" >> "$HOME/${file}"; done`;

sandboxedTest(
  "configure reaches only its internet-hosts, link any host, each through its own proxy (SBX-14, ADP-15)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("reacher", {
      configure: `${FETCH("configure.txt")}; echo '{"changed":true}'`,
      link: `${FETCH("link.txt")}; echo '{}'`,
    });
    const id = await createAgent(home, "reacher", model.url);
    const serve = () =>
      Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response("ok"));
    await using named = serve();
    await using other = serve();
    const addresses: Record<string, string> = {
      "registry.example": "93.184.216.34",
      "other.example": "93.184.216.35",
    };
    const dialled: string[] = [];
    const ctx = agentContext(home.env, { home: home.path });
    const done = await runSetup(ctx, await loadSettings(home.paths, id), {
      proxy: {
        resolve: (name) => Promise.resolve(addresses[name] ? [addresses[name]] : []),
        dial: (address, port) => {
          dialled.push(`${address}:${port}`);
          const to = address === addresses["registry.example"] ? named : other;
          return Deno.connect({ hostname: "127.0.0.1", port: to.addr.port });
        },
        localNetworks: [],
        machineNames: [],
      },
    });
    assert.deepEqual(done.ran, ["install", "configure", "link"]);
    const hh = join(home.paths.agentState(id), "harnesses", "reacher");
    assert.equal(
      await Deno.readTextFile(join(hh, "configure.txt")),
      "registry.example 200\nother.example 403\n",
    );
    assert.equal(await Deno.readTextFile(join(hh, "link.txt")), "registry.example 200\nother.example 200\n");
    // configure's proxy dialled the named host alone; link's both.
    assert.deepEqual(dialled, ["93.184.216.34:80", "93.184.216.34:80", "93.184.216.35:80"]);
  },
);
