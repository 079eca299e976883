import assert from "node:assert/strict";
import { readIdRaw, services } from "../../../core/agent/mod.ts";
import { tempHome } from "../../support/mod.ts";

const definition = (role: services.ServiceRole): services.ServiceDefinition => ({
  role,
  agentId: "abc123def",
  names: services.serviceNames(role, "abc123def"),
  description: `Link ${role} of "main" (abc123def)`,
  argv: ["/usr/bin/lnk", "agent", role === "agent" ? "run" : "bridge", "--agent", "abc123def"],
  env: { HOME: "/home/ana", PATH: "/usr/bin", LNK_LOG: "info", OPENAI_API_KEY: "sk-never" },
});

Deno.test("serviceNames() keys every service by the agent's ID (IDN-1)", () => {
  assert.deepEqual(services.serviceNames("agent", "x1y2z3"), {
    base: "lnk-agent-x1y2z3",
    systemd: "lnk-agent-x1y2z3.service",
    launchd: "link.agent.x1y2z3",
  });
  assert.deepEqual(services.serviceNames("bridge", "x1y2z3").launchd, "link.bridge.x1y2z3");
});

Deno.test("checkHarnessServiceName() refuses names starting link. or lnk- (IDN-2)", () => {
  for (const name of ["lnk-foo", "link.foo", "LNK-x", "Link.agent.1"]) {
    assert.throws(() => services.checkHarnessServiceName(name), { code: "REFUSED" });
  }
  services.checkHarnessServiceName("openclaw-gateway");
});

Deno.test("systemdUnit() writes the unit a systemd --user manager runs, with no key in it", () => {
  assert.equal(
    services.systemdUnit(definition("agent")),
    [
      "[Unit]",
      'Description=Link agent of "main" (abc123def)',
      "After=network.target",
      "",
      "[Service]",
      "Type=simple",
      "ExecStart=/usr/bin/lnk agent run --agent abc123def",
      "Environment=HOME=/home/ana",
      "Environment=PATH=/usr/bin",
      "Environment=LNK_LOG=info",
      "Restart=on-failure",
      "RestartSec=1",
      "KillMode=control-group",
      "",
      "[Install]",
      "WantedBy=default.target",
      "",
    ].join("\n"),
  );
});

Deno.test("launchdPlist() writes the launch agent, labelled link.<role>.<id>", () => {
  const plist = services.launchdPlist(definition("bridge"), "/home/ana/.lnk/run/lnk-bridge-abc123def.log");
  assert.match(plist, /<key>Label<\/key><string>link\.bridge\.abc123def<\/string>/);
  assert.match(
    plist,
    /<string>\/usr\/bin\/lnk<\/string>\n {4}<string>agent<\/string>\n {4}<string>bridge<\/string>/,
  );
  assert.match(
    plist,
    /<key>StandardErrorPath<\/key><string>\/home\/ana\/\.lnk\/run\/lnk-bridge-abc123def\.log<\/string>/,
  );
  assert.doesNotMatch(plist, /sk-never/);
});

Deno.test("readIdRaw() reads the ID as the file holds it and writes nothing (IDN-3)", async () => {
  await using home = await tempHome();
  const path = `${home.path}/settings.toml`;
  await Deno.writeTextFile(path, 'name = "main"\nid = "abcdef123"\n[old_section]\nid = "not-this"\n');
  const before = await Deno.stat(path);
  assert.equal(await readIdRaw(path), "abcdef123");
  const after = await Deno.stat(path);
  assert.deepEqual([after.mtime, after.size], [before.mtime, before.size]);
});

Deno.test("an agent from before IDs is keyed by its name (IDN-4)", async () => {
  await using home = await tempHome();
  const path = `${home.path}/settings.toml`;
  await Deno.writeTextFile(path, 'name = "main"\nharness = "openclaw"\n');
  const id = await readIdRaw(path);
  assert.equal(id, "main");
  assert.equal(services.serviceNames("agent", id!).systemd, "lnk-agent-main.service");
});

Deno.test("pickBackend() uses the detached backend where neither systemd nor launchd runs", async () => {
  await using home = await tempHome();
  const backend = await services.pickBackend(home.paths, { get: () => undefined });
  assert.equal(
    backend.kind,
    Deno.build.os === "darwin" ? "launchd" : (await hasSystemd()) ? "systemd" : "detached",
  );
});

async function hasSystemd(): Promise<boolean> {
  try {
    await Deno.stat("/run/systemd/system");
    return true;
  } catch {
    return false;
  }
}
