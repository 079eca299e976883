import assert from "node:assert/strict";
import { describeCheck } from "../../../cmd/agent/grants_text.ts";

Deno.test("describeCheck() lays out the rows, the gaps host mode opens, and how many failed (SBX-9)", () => {
  const text = describeCheck({
    agent: "main",
    harness: "link",
    network: "host",
    ok: false,
    rows: [
      { check: "your home (~)", expected: "hidden", result: "read-only", ok: false },
      {
        check: "other ports of this machine, directly",
        expected: "open (host mode)",
        result: "connected",
        ok: true,
        gap: true,
      },
    ],
  });
  assert.equal(
    text,
    [
      'Checked the sandbox of "main" (harness link, network host):',
      "",
      "check                                  expected          result     ok",
      "your home (~)                          hidden            read-only  FAIL",
      "other ports of this machine, directly  open (host mode)  connected  ok",
      "",
      'Gaps `[network] mode = "host"` opens (`lnk agent deny --network-mode host` closes them):',
      "  other ports of this machine, directly: connected",
      "",
      "1 of 2 checks FAILED",
    ].join("\n"),
  );
});
