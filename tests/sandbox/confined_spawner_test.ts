import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfinedSpawner, type SpawnedChild } from "../../sandbox/mod.ts";
import { agentFixture, LINK_HARNESS, PRELUDE, runPlan, sandboxTest } from "../support/sandbox.ts";

/** Why Landlock cannot confine here, or undefined when it can. */
const NO_LANDLOCK: string | undefined = await (async () => {
  if (Deno.build.os !== "linux") return "Landlock is Linux's";
  try {
    await (await ConfinedSpawner.start([]))[Symbol.asyncDispose]();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
})();
if (NO_LANDLOCK) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`Landlock tests ignored: ${NO_LANDLOCK}`);
}

function landlockTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: NO_LANDLOCK !== undefined, fn });
}

async function outputOf(
  child: SpawnedChild,
): Promise<{ status: Deno.CommandStatus; stdout: string; stderr: string }> {
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  return { status, stdout, stderr };
}

const W = `w() { ( echo x >> "$1" ) 2>/dev/null && echo "wrote $1" || echo "denied $1"; }`;

landlockTest(
  "ConfinedSpawner keeps its programs from writing the kept folders, while this process still writes them (LAY-7)",
  async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-confine-" }));
    try {
      const kept = join(dir, "Agent");
      await Deno.mkdir(join(kept, "chats"), { recursive: true });
      await Deno.mkdir(join(dir, "Home"));
      await using spawner = await ConfinedSpawner.start([kept]);
      const script = `${W}; cd ${dir}; w Home/a; w Agent/chats/b; mkdir Agent/x 2>/dev/null || echo no-mkdir;
      mv Home/a Agent/chats/a 2>/dev/null || echo no-move; ln -s /etc Agent/l 2>/dev/null || echo no-link; cat Agent/chats/c`;
      await Deno.writeTextFile(join(kept, "chats", "c"), "readable\n");
      const child = await spawner.spawn("sh", { args: ["-c", script], stdin: "null" });
      assert.deepEqual(await outputOf(child), {
        status: { success: true, code: 0, signal: null },
        stdout: `wrote Home/a\ndenied Agent/chats/b\nno-mkdir\nno-move\nno-link\nreadable\n`,
        stderr: "",
      });
      // The thread that asked is not in the domain: the harness goes on writing its chats.
      await Deno.writeTextFile(join(kept, "chats", "d"), "harness\n");
      assert.ok(spawner.abi >= 1);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

landlockTest(
  "ConfinedSpawner feeds stdin, passes variables and the folder, and ends a program it is told to",
  async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-confine-" }));
    try {
      await using spawner = await ConfinedSpawner.start([]);
      const cat = await spawner.spawn("sh", {
        args: ["-c", 'pwd; echo "$CHOSEN"; cat'],
        cwd: dir,
        env: { CHOSEN: "yes" },
        stdin: "piped",
      });
      const writer = cat.stdin.getWriter();
      await writer.write(new TextEncoder().encode("fed\n"));
      await writer.close();
      assert.deepEqual(await outputOf(cat), {
        status: { success: true, code: 0, signal: null },
        stdout: `${dir}\nyes\nfed\n`,
        stderr: "",
      });
      const sleeper = await spawner.spawn("sleep", { args: ["60"], stdin: "null" });
      sleeper.kill("SIGKILL");
      assert.deepEqual(await outputOf(sleeper), {
        status: { success: false, code: 137, signal: "SIGKILL" },
        stdout: "",
        stderr: "",
      });
      await assert.rejects(
        spawner.spawn("/no/such/program", { args: [], stdin: "null" }),
        Deno.errors.NotFound,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

landlockTest(
  "ConfinedSpawner's programs cannot reach into the process that started them: its memory, descriptors, root",
  async () => {
    await using spawner = await ConfinedSpawner.start([]);
    const child = await spawner.spawn("sh", {
      args: [
        "-c",
        `p=/proc/${Deno.pid}; (exec 3<>$p/mem) 2>/dev/null && echo reached-mem || echo refused-mem
       readlink $p/fd/0 >/dev/null 2>&1 && echo reached-fd || echo refused-fd
       ls $p/root/ >/dev/null 2>&1 && echo reached-root || echo refused-root`,
      ],
      stdin: "null",
    });
    assert.deepEqual((await outputOf(child)).stdout, "refused-mem\nrefused-fd\nrefused-root\n");
  },
);

landlockTest(
  "ConfinedSpawner hides folders from its programs: no reading, listing, writing or running in them, by any way (PRC-4)",
  async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-confine-" }));
    try {
      for (const name of ["A", "B"]) await Deno.mkdir(join(dir, name));
      await Deno.writeTextFile(join(dir, "A", "a"), "in A\n");
      await Deno.writeTextFile(join(dir, "B", "b"), "in B\n");
      await Deno.writeTextFile(join(dir, "B", "run"), "#!/bin/sh\necho ran\n", { mode: 0o755 });
      await Deno.symlink(join(dir, "B"), join(dir, "A", "l"));
      await using spawner = await ConfinedSpawner.start([], { hide: [join(dir, "B")] });
      const run = async (program: string, ...args: string[]) =>
        await outputOf(await spawner.spawn(program, { args, cwd: dir, stdin: "null" }));
      const ok = { success: true, code: 0, signal: null };
      assert.deepEqual(await run("/bin/cat", "A/a"), { status: ok, stdout: "in A\n", stderr: "" });
      assert.deepEqual(await run("/bin/ls", "A"), { status: ok, stdout: "a\nl\n", stderr: "" });
      assert.deepEqual(await run("/bin/cat", "B/b"), {
        status: { success: false, code: 1, signal: null },
        stdout: "",
        stderr: "/bin/cat: B/b: Permission denied\n",
      });
      assert.deepEqual(await run("/bin/ls", "B"), {
        status: { success: false, code: 2, signal: null },
        stdout: "",
        stderr: "/bin/ls: cannot open directory 'B': Permission denied\n",
      });
      const script = `${W}; r() { cat "$1" 2>/dev/null || echo "denied $1"; }
      r A/l/b; ls A/l/ >/dev/null 2>&1 || echo no-list-through-link; w B/new; w B/b; w A/l/new; w A/new
      mkdir B/d 2>/dev/null || echo no-mkdir; ./B/run 2>/dev/null || echo no-run; sh B/run 2>/dev/null || echo no-sh-run
      ln B/b A/hard 2>/dev/null || echo no-hard-link; mv B/b A/moved 2>/dev/null || echo no-move
      (cd B && { ls >/dev/null 2>&1 || echo no-list-in-B; r b; w new2; }); cd A/l && r b
      cat /usr/bin/env >/dev/null && echo read-env; /usr/bin/env sh -c 'echo ran-sh'`;
      assert.deepEqual(await run("/bin/sh", "-c", script), {
        status: ok,
        stdout:
          "denied A/l/b\nno-list-through-link\ndenied B/new\ndenied B/b\ndenied A/l/new\nwrote A/new\n" +
          "no-mkdir\nno-run\nno-sh-run\nno-hard-link\nno-move\nno-list-in-B\ndenied b\ndenied new2\ndenied b\n" +
          "read-env\nran-sh\n",
        stderr: "",
      });
      // This process still reads it all, and nothing in it changed.
      const entries = [...Deno.readDirSync(join(dir, "B"))].map((e) => e.name).sort();
      assert.deepEqual(entries, ["b", "run"]);
      assert.equal(await Deno.readTextFile(join(dir, "B", "b")), "in B\n");
      assert.equal(await Deno.readTextFile(join(dir, "A", "new")), "x\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

landlockTest(
  "ConfinedSpawner refuses to hide a folder not named by its real path, and says which",
  async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-confine-" }));
    try {
      await Deno.mkdir(join(dir, "B"));
      await Deno.symlink(dir, join(dir, "link"));
      const named = join(dir, "link", "B");
      await assert.rejects(ConfinedSpawner.start([], { hide: [named] }), {
        name: "LinkError",
        code: "SANDBOX_UNAVAILABLE",
        message:
          `Cannot hide "${named}" from programs: "${named}" is not a real path: "${named}" is "${dir}/B"`,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

sandboxTest(
  "attack: read the folders a shared harness hides from one agent's run commands, in its sandbox (PRC-4)",
  async () => {
    await using fx = await agentFixture();
    const entry = new URL("./_hide_child.ts", import.meta.url).pathname;
    // Agent/ holds a bind mount for each collection: each is hidden with it, Home is not.
    const script = `${PRELUDE}cd ${fx.agentHome}; r notes.txt; r ${fx.agentDir}/instructions/agent.md
    ls ${fx.agentDir}/chats >/dev/null 2>&1 || echo no-list-chats; w ${fx.agentDir}/chats/x; w work/new
    ln -s ${fx.agentDir}/memory mem && r mem/m.md; cd ${fx.agentDir}/skills && r s.md
    cat /usr/bin/env >/dev/null && echo read-env; /usr/bin/env sh -c 'echo ran-sh'`;
    const r = await runPlan(
      await fx.plan([Deno.execPath(), "run", "-A", entry, fx.agentDir, "memory/m.md", script], LINK_HARNESS),
    );
    assert.deepEqual(r, {
      code: 0,
      stdout: `my notes\ndenied ${fx.agentDir}/instructions/agent.md\nno-list-chats\n` +
        `denied ${fx.agentDir}/chats/x\nwrote work/new\ndenied mem/m.md\ndenied s.md\nread-env\nran-sh\n` +
        "harness read memory/m.md: memory\n",
      stderr: "",
    });
  },
);
