// Run by attacks_setup_test.ts as an ordinary user: one setup step's attack in a home of that
// user's, printing what it reached as one line of JSON. The test removes the home.
import { setupAttack } from "./_setup_attack_support.ts";

const [root, step, lan] = Deno.args;
const found = await setupAttack(step as "install" | "health", { root: root!, lan: lan || undefined });
// deno-lint-ignore no-console -- the one line the test reads.
console.log(JSON.stringify(found));
