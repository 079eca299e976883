import assert from "node:assert/strict";
import { join } from "node:path";
import { isTimeZone, systemTimeZone } from "../../../core/scheduler/mod.ts";
import { testEnv } from "../../support/mod.ts";

Deno.test("isTimeZone() knows IANA names and UTC, not made-up ones", () => {
  assert.deepEqual(
    ["Europe/Paris", "America/New_York", "UTC", "Mars/Olympus", ""].map(isTimeZone),
    [true, true, true, false, false],
  );
});

Deno.test("systemTimeZone(): TZ when it names a known zone, else the /etc/timezone file, else the runtime's (U-38)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "timezone");
    await Deno.writeTextFile(file, "Asia/Tokyo\n");
    assert.equal(
      await systemTimeZone(testEnv({ TZ: ":Europe/Paris" }), { etcTimezone: file }),
      "Europe/Paris",
    );
    assert.equal(await systemTimeZone(testEnv({ TZ: "Mars/Olympus" }), { etcTimezone: file }), "Asia/Tokyo");
    const runtime = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    const none = await systemTimeZone(testEnv({}), { etcTimezone: join(dir, "missing") });
    assert.equal(none, isTimeZone(runtime) ? runtime : "UTC");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
