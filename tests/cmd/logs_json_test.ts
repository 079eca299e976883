import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../support/mod.ts";

type Logs = {
  name: string;
  id: string;
  lines: ({ service: string; entry: { msg?: string } } | { service: string; text: string })[];
};

Deno.test("lnk agent logs --json gives each line with its service: Link's lines as entries, others as text", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  assert.deepEqual(await runJson<Logs>(["agent", "logs"], home), { name: "work", id, lines: [] });
  await runJson(["agent", "start"], home);
  await runJson(["agent", "stop"], home);
  await Deno.writeTextFile(join(home.paths.run, `lnk-bridge-${id}.log`), "a harness's own words\n", {
    append: true,
  });
  const logs = await runJson<Logs>(["agent", "logs"], home);
  assert.deepEqual([logs.name, logs.id], ["work", id]);
  const bridge = logs.lines.filter((l) => l.service === "bridge");
  assert.ok(bridge.some((l) => "entry" in l && l.entry.msg === "Door open"), JSON.stringify(bridge));
  assert.deepEqual(logs.lines.at(-1), { service: "bridge", text: "a harness's own words" });
  // The same lines as text, each labelled with its service.
  const text = await runCli(["agent", "logs"], home);
  assert.match(text.stdout, /^bridge: .*"msg":"Door open"/m);
  assert.match(text.stdout, /^bridge: a harness's own words$/m);
});
