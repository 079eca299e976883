import assert from "node:assert/strict";
import { join } from "node:path";
import { isLinkError } from "../../../core/base/mod.ts";
import { resolveCommand, splitCommand } from "../../../core/adapters/mod.ts";

Deno.test("an ACP command is read as a shell reads its words, quotes and backslashes kept together", () => {
  assert.deepEqual(splitCommand("qwen --acp"), ["qwen", "--acp"]);
  assert.deepEqual(splitCommand(`  "/opt/my agent/bin/x"  --flag='a b' c\\ d ""`), [
    "/opt/my agent/bin/x",
    "--flag=a b",
    "c d",
    "",
  ]);
  for (const bad of ['"qwen --acp', "", "   ", '"" --acp']) {
    assert.throws(() => splitCommand(bad), (err) => isLinkError(err, "USAGE"), bad);
  }
});

Deno.test("an ACP command's needs: where its program and the Node its #! line finds live, read-only; nothing for /usr", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-acp-" }));
  try {
    const modules = join(dir, "node_modules");
    await Deno.mkdir(join(modules, ".bin"), { recursive: true });
    await Deno.mkdir(join(modules, "agent"), { recursive: true });
    await Deno.mkdir(join(modules, "node", "bin"), { recursive: true });
    await Deno.writeTextFile(join(modules, "agent", "cli.js"), "#!/usr/bin/env node\n", { mode: 0o755 });
    await Deno.writeTextFile(join(modules, "node", "bin", "node"), "binary", { mode: 0o755 });
    await Deno.symlink("../agent/cli.js", join(modules, ".bin", "agent"));
    await Deno.symlink("../node/bin/node", join(modules, ".bin", "node"));
    const env = { get: (name: string) => (name === "PATH" ? `${modules}/.bin:/usr/bin:/bin` : undefined) };
    const resolved = await resolveCommand(["agent", "--acp"], env);
    assert.deepEqual(resolved.command, [join(modules, ".bin", "agent"), "--acp"]);
    assert.deepEqual(resolved.read, [modules]);
    assert.ok(resolved.path.startsWith(`${modules}/.bin:`), "its own folder first on its PATH inside");
    // A program in a prefix of its own: the prefix; a file named in its arguments: its folder.
    await Deno.mkdir(join(dir, "opt", "tool", "bin"), { recursive: true });
    await Deno.writeTextFile(join(dir, "opt", "tool", "bin", "tool"), "binary", { mode: 0o755 });
    await Deno.mkdir(join(dir, "scripts"));
    await Deno.writeTextFile(join(dir, "scripts", "agent.ts"), "");
    const tool = await resolveCommand([
      join(dir, "opt", "tool", "bin", "tool"),
      join(dir, "scripts", "agent.ts"),
    ], env);
    assert.deepEqual(tool.read, [join(dir, "opt", "tool"), join(dir, "scripts")]);
    // A program every sandbox shows already needs nothing.
    assert.deepEqual((await resolveCommand(["sh", "-c", "true"], env)).read, []);
    await assert.rejects(
      resolveCommand(["no-such-program"], env),
      (err) => isLinkError(err, "HARNESS_MISSING"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
