import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { sandboxedTest } from "../../support/sandboxed_agent.ts";

/**
 * A home whose PATH holds `lnk-<harness>`, an adapter from outside Link: a shell script answering
 * `contract` and `needs` with the scripts given, and `endpoint` with the smallest stdio ACP agent,
 * which each test copies into the Home of its agent `a` (a harness from outside sees all of Home).
 */
async function homeWithAdapter(
  harness: string,
  answers: { contract?: string; needs?: string },
): Promise<TempHome> {
  const home = await tempHome();
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin);
  const agentFile = join(home.path, "Link", "Agents", "a", "Home", "echo.ts");
  const endpoint = JSON.stringify({ stdio: { command: [Deno.execPath(), "run", "--allow-env", agentFile] } });
  await Deno.writeTextFile(
    join(bin, `lnk-${harness}`),
    `#!/bin/sh\ncat >/dev/null\ncase "$1" in\n` +
      `contract) ${answers.contract ?? `echo '{"version":2,"fields":["proof"]}'`};;\n` +
      `needs) ${answers.needs ?? "echo '{}'"};;\n` +
      `endpoint) echo '${endpoint}';;\n*) echo '{}';;\nesac\n`,
  );
  await Deno.chmod(join(bin, `lnk-${harness}`), 0o755);
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  return home;
}

/** Creates agent `a` on the harness, with the echo agent in its Home. */
async function createAgent(home: TempHome, harness: string, modelUrl: string): Promise<void> {
  await runJson(["agent", "create", "a", "--harness", harness, "--model-url", modelUrl], home);
  await Deno.copyFile(
    new URL("../../fixtures/acp_echo_child.ts", import.meta.url),
    join(home.path, "Link", "Agents", "a", "Home", "echo.ts"),
  );
}

async function refused(home: TempHome, args: string[]): Promise<{ code: string; message: string }> {
  const result = await runCli([...args, "--json"], home);
  assert.notEqual(result.code, 0, args.join(" "));
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
}

sandboxedTest(
  "an outside adapter whose endpoint is a stdio ACP command answers in Link's sandbox under the hub (ADP-7)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("echoer", {});
    await createAgent(home, "echoer", model.url);
    await runJson(["agent", "start", "--agent", "a"], home);
    assert.equal((await runCli(["agent", "chat", "send", "--agent", "a", "hi"], home)).stdout, "echo: hi\n");
    await runJson(["agent", "stop", "--agent", "a"], home);
  },
);

sandboxedTest("a crashing needs starts the harness with the defaults (GRT-17)", async () => {
  await using model = await serveFakeModel();
  await using home = await homeWithAdapter("crashy", { needs: "echo 'no config' >&2; exit 1" });
  await createAgent(home, "crashy", model.url);
  await runJson(["agent", "start", "--agent", "a"], home);
  assert.equal((await runCli(["agent", "chat", "send", "--agent", "a", "hi"], home)).stdout, "echo: hi\n");
  await runJson(["agent", "stop", "--agent", "a"], home);
});

sandboxedTest(
  "an adapter of version 1, an unknown grant, or needs no one granted: the start is refused, naming the adapter, and the agent stays stopped (GRT-15, GRT-17)",
  async () => {
    await using model = await serveFakeModel();
    const cases: [string, { contract?: string; needs?: string }, string, RegExp][] = [
      ["oldone", { contract: `echo '{"version":1}'` }, "UNSUPPORTED", /"oldone" is older than this Link/],
      [
        "greedy",
        { needs: `echo '{"spec":{"kernel":{"modules":true}},"why":{"kernel":"x"}}'` },
        "SANDBOX_REFUSED",
        /"greedy".*kernel/,
      ],
      [
        "wants",
        { needs: `echo '{"spec":{"paths":{"read":["/opt/wants"]}},"why":{"paths":"its data"}}'` },
        "REFUSED",
        /needs --read \/opt\/wants/,
      ],
    ];
    for (const [harness, answers, code, message] of cases) {
      await using home = await homeWithAdapter(harness, answers);
      await createAgent(home, harness, model.url);
      const error = await refused(home, ["agent", "start", "--agent", "a"]);
      assert.equal(error.code, code, harness);
      assert.match(error.message, message, harness);
      const status = await runJson<{ state: string }>(["agent", "status", "--agent", "a"], home);
      assert.notEqual(status.state, "running", harness);
    }
  },
);
