/**
 * The install step of an adapter built into lnk (DeepSeek Harness's here) at an agent's start: run
 * as `lnk harness adapter <harness> install` in a sandbox of its own, behind a proxy reaching only
 * the adapter's internet-hosts (SBX-13, ADP-9, ADP-15). The step's proxy is pointed at an upstream
 * of the test's, so no test reaches the internet: the registry's name resolves to an address the
 * proxy refuses, as a refused registry would answer.
 */
import assert from "node:assert/strict";
import { agentContext, loadSettings } from "../../../../core/agent/mod.ts";
import { markerPath, readInstallMarker, runSetup } from "../../../../core/agent/setup/mod.ts";
import { DSH_RELEASE } from "../../../../core/adapters/deepseek/mod.ts";
import { isLinkError } from "../../../../core/base/mod.ts";
import type { ProxyUpstream } from "../../../../sandbox/mod.ts";
import { standInDshInstall } from "../../../support/dsh.ts";
import { runJson, tempHome } from "../../../support/mod.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";

sandboxedTest(
  "a built-in adapter's install runs as a setup step in its sandbox, from the person's own registry: refused by it, the start fails naming the harness, the step and npm's words, leaving no marker; an install there already is marked once (SBX-13, ADP-15)",
  async () => {
    await using home = await tempHome();
    // The person's npm installs from a registry of theirs: the step, which cannot read their config, is
    // handed it, and its proxy reaches that host alone.
    home.env.set("npm_config_registry", "https://registry.example.test/npm/");
    const { id } = await runJson<{ id: string }>(
      [
        "agent",
        "create",
        "d",
        "--harness",
        "deepseek",
        "--model-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
      ],
      home,
    );
    const ctx = agentContext(home.env);
    const agent = await loadSettings(home.paths, id);
    const asked: string[] = [];
    const proxy: ProxyUpstream = {
      resolve: (name: string) => {
        asked.push(name);
        // A private address: the proxy refuses it (403), as it never reaches this machine's networks.
        return Promise.resolve(["10.255.255.1"]);
      },
      dial: () => Promise.reject(new Error("the test's upstream dials nothing")),
      startTls: () => Promise.reject(new Error("the test's upstream speaks no TLS")),
      localNetworks: [],
      machineNames: [],
    };

    const failed = await runSetup(ctx, agent, { proxy }).then(() => undefined, (err) => err);
    assert.ok(isLinkError(failed, "SERVICE_FAILED"), String(failed));
    assert.match(failed.message, /harness "deepseek" failed `install`/);
    assert.match(failed.message, /npm could not install/);
    assert.match(failed.hint ?? "", /lnk harness adapter deepseek install --json/);
    assert.ok(asked.length > 0, "npm asked its registry through the step's proxy");
    assert.deepEqual([...new Set(asked)], ["registry.example.test"]);
    assert.equal(await readInstallMarker(home.paths, "deepseek"), undefined);

    await standInDshInstall(home.path);
    assert.deepEqual(await runSetup(ctx, agent, { proxy }), { ran: ["install"], release: DSH_RELEASE });
    assert.equal((await readInstallMarker(home.paths, "deepseek"))?.release, DSH_RELEASE);
    const marked = (await Deno.stat(markerPath(home.paths, "deepseek"))).mtime;
    // Marked by this lnk: the next start asks no install again.
    assert.deepEqual(await runSetup(ctx, agent, { proxy }), { ran: [], release: DSH_RELEASE });
    assert.deepEqual((await Deno.stat(markerPath(home.paths, "deepseek"))).mtime, marked);
  },
);
