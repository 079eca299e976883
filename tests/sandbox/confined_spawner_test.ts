import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfinedSpawner, type SpawnedChild } from "../../sandbox/mod.ts";

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
