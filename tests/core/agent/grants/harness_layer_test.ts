import assert from "node:assert/strict";
import * as grants from "../../../../core/agent/grants/mod.ts";
import { tempHome } from "../../../support/mod.ts";
import { contextOf, newAgent } from "./_support.ts";

Deno.test("harnessPolicy() is the agent's grants alone when its harness has no layer (GRT-3)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const policy = await grants.harnessPolicy(contextOf(home), agent);
  assert.deepEqual(policy.spec, policy.agentSpec);
  assert.deepEqual(
    [policy.layer, policy.folders, policy.harnessWritesChats, policy.harnessHome],
    [undefined, "layout", true, home.paths.agentState(agent.id) + "/harnesses/link"],
  );
});

Deno.test("harnessPolicy() adds the harness's layer on top, never its hosts, never narrowing (GRT-2, GRT-24, GRT-25)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home, "main", ["--harness", "mini"]);
  await Deno.mkdir(home.paths.harnesses, { recursive: true });
  await Deno.writeTextFile(
    home.paths.harnessToml("mini"),
    [
      "# mini's answers",
      "[internet]",
      'hosts = ["only.example"]',
      'tcp = ["github.com:22"]',
      "[localhost]",
      "ports = [5432]",
      "[files]",
      'instructions = "write"',
      'skills = "none"',
      "[needs]",
      "answered = true",
      "",
    ].join("\n"),
  );
  const policy = await grants.harnessPolicy(contextOf(home), agent);
  assert.deepEqual(policy.layer, {
    path: home.paths.harnessToml("mini"),
    flags: { tcp: ["github.com:22"], port: ["5432"], files: ["instructions=write", "skills=none"] },
    ignored: ["internet.hosts"],
  });
  assert.deepEqual(policy.spec.internet, { hosts: ["*"], tcp: ["github.com:22"] });
  assert.deepEqual(policy.spec.localhost.ports, [5432]);
  assert.deepEqual(policy.spec.files, { ".": "write", instructions: "write", skills: "read", chats: "read" });
  assert.deepEqual(policy.agentSpec.internet.tcp, []);
  // Another harness never gets mini's layer (GRT-2).
  const other = await grants.harnessPolicy(contextOf(home), { ...agent, harness: "link" });
  assert.deepEqual([other.layer, other.spec.internet.tcp], [undefined, []]);
});

Deno.test("loadHarnessLayer() names the file, line and key of a bad grant", async () => {
  await using home = await tempHome();
  await Deno.mkdir(home.paths.harnesses, { recursive: true });
  const path = home.paths.harnessToml("hermes");
  await Deno.writeTextFile(path, '[needs]\n\n[network]\nmode = "wide"\n');
  await assert.rejects(grants.loadHarnessLayer(home.paths, "hermes"), (err: Error & { code?: string }) => {
    assert.equal(err.code, "CONFIG_INVALID");
    assert.match(err.message, new RegExp(`^Cannot load "${path}": line 4: key "network.mode"`));
    return true;
  });
});

Deno.test("harnessPolicy() shows a harness from outside Link all of Home, and Agent/ not at all (LAY-8)", async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  const policy = await grants.harnessPolicy(contextOf(home), { ...agent, harness: "hermes" });
  assert.deepEqual([policy.folders, policy.harnessWritesChats], ["home", false]);
});
