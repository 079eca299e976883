import { sha256Hex } from "../../base/mod.ts";
import { MODEL_KEY_PLACEHOLDER, type ModelWiring } from "./model_keys.ts";
import type { PlannedCheck } from "./planned_check.ts";

/** The model key inside: the placeholder when the proxy adds it (SBX-16), the key when the harness holds it. */
export function modelKeyCheck(wiring: ModelWiring): PlannedCheck {
  const check = `model key${wiring.keyVar ? ` (${wiring.keyVar})` : ""}`;
  const none = !wiring.keyVar ? "none needed" : !wiring.keySet ? "none set" : undefined;
  const expected = none ??
    (wiring.wired ? "placeholder only (the proxy adds it)" : "the key (the harness holds it)");
  return {
    check,
    expected,
    probes: [{ kind: "env" }],
    judge([answer]) {
      const hashes = answer?.hashes ?? {};
      const keyInside = wiring.keySha256 !== undefined &&
        Object.values(hashes).includes(wiring.keySha256);
      const held = wiring.keyVar ? hashes[wiring.keyVar] : undefined;
      const result = keyInside
        ? "the key itself is inside"
        : held === sha256Hex(MODEL_KEY_PLACEHOLDER)
        ? "placeholder only"
        : held === undefined
        ? "not set inside"
        : "something else";
      const ok = none
        ? !keyInside
        : wiring.wired
        ? !keyInside && result === "placeholder only"
        : result === "the key itself is inside";
      return Promise.resolve({ result, ok });
    },
  };
}
