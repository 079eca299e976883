import assert from "node:assert/strict";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent secret shows whether the proxy adds the model key, by default for Link Harness (SBX-17)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--model", "gpt-4.1-nano"], home);
  home.env.set("OPENAI_API_KEY", "sk-shown-never");
  const shown = await runCli(["agent", "secret"], home);
  assert.deepEqual(shown, {
    code: 0,
    stdout: 'Model key of "main": wired: the proxy adds it, the harness holds a placeholder ' +
      "(the default for harness link)\n  key: openai, from OPENAI_API_KEY (set)\n",
    stderr: "",
  });
});

Deno.test("lnk agent secret hold and wire switch it for one agent, and it stays (SBX-16, SBX-17)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--model", "deepseek-chat"], home);
  await runJson(["agent", "create", "other", "--harness", "mini"], home);
  const held = await runJson(["agent", "secret", "hold", "--agent", "main"], home);
  assert.deepEqual(held, {
    agent: "main",
    harness: "link",
    wired: false,
    by: "setting",
    provider: "deepseek",
    keyVar: "DEEPSEEK_API_KEY",
    keySet: false,
  });
  assert.equal(
    (await runJson<{ wired: boolean }>(["agent", "secret", "--agent", "main"], home)).wired,
    false,
  );
  const other = await runJson<{ wired: boolean; by: string }>(["agent", "secret", "--agent", "other"], home);
  assert.deepEqual([other.wired, other.by], [false, "default"]);
  const wired = await runJson<{ wired: boolean; by: string }>(
    ["agent", "secret", "wire", "--agent", "other"],
    home,
  );
  assert.deepEqual([wired.wired, wired.by], [true, "setting"]);
});

Deno.test("lnk agent secret refuses a word other than wire or hold", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  assert.deepEqual(await runCli(["agent", "secret", "inject"], home), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot set the model key to "inject": it is wire or hold\n' +
      "  hint: Usage: lnk agent secret [wire | hold] [--agent <name>] [--json]\n",
  });
});
