import assert from "node:assert/strict";
import { formatSize } from "../../../core/spec/limits_spec.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec, SandboxSpec } from "../../../sandbox/mod.ts";

const GIB = 1024 ** 3;

Deno.test("parseSandboxSpec() gives [limits] its defaults: 1024 processes, 4 GiB of memory, 4 GiB a file", () => {
  const expected = { processes: 1024, memory: 4 * GIB, file_size: 4 * GIB };
  assert.deepEqual(parseSandboxSpec("", "sandbox.toml").limits, expected);
  assert.deepEqual(parseSandboxSpec(DEFAULT_SANDBOX_TOML, "sandbox.toml").limits, expected);
});

Deno.test("parseSandboxSpec() reads sizes with binary units, or bytes, and parses its own output again", () => {
  const spec = parseSandboxSpec(
    '[limits]\nprocesses = 200\nmemory = "3072MiB"\nfile_size = 1048576\n',
    "sandbox.toml",
  );
  assert.deepEqual(spec.limits, { processes: 200, memory: 3072 * 1024 ** 2, file_size: 1024 ** 2 });
  assert.deepEqual(SandboxSpec.parse(spec).limits, spec.limits);
  assert.equal(parseSandboxSpec('[limits]\nmemory = "2G"\n', "s").limits.memory, 2 * GIB);
});

Deno.test("parseSandboxSpec() refuses a limit that is no size, too small, or unknown, naming the line", () => {
  const text = '[limits]\nmemory = "2GB"\nfile_size = "1K"\nprocesses = 3\nthreads = 9\n';
  assert.throws(
    () => parseSandboxSpec(text, "/a/sandbox.toml"),
    (err: Error & { code: string; hint: string }) => {
      assert.equal(err.code, "CONFIG_INVALID");
      assert.equal(
        err.hint,
        "Fix these grants, or run `lnk agent allow` or `deny`:\n" +
          '  /a/sandbox.toml:line 4: key "limits.processes": must be at least 64: Deno alone runs a few dozen threads\n' +
          '  /a/sandbox.toml:line 2: key "limits.memory": must be a size such as "4GiB" or "512MiB"\n' +
          '  /a/sandbox.toml:line 3: key "limits.file_size": must be at least "1MiB"\n' +
          '  /a/sandbox.toml:line 5: key "limits.threads" is not known',
      );
      return true;
    },
  );
  assert.throws(() => parseSandboxSpec('[limits]\nmemory = "1GiB"\n', "s"), { code: "CONFIG_INVALID" });
});

Deno.test("formatSize() says a size in its largest whole unit", () => {
  assert.deepEqual(
    [formatSize(4 * GIB), formatSize(1536 * 1024 ** 2), formatSize(16 * 1024 ** 2), formatSize(1000)],
    ["4 GiB", "1536 MiB", "16 MiB", "1000 bytes"],
  );
});
