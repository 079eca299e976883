// Run by sandbox_as_user.ts as another uid: makes the agent fixture in the home given and runs one
// script in its sandbox, printing what it printed as one line of JSON. The test removes the home.
import { agentFixture, type RunOptions } from "./sandbox.ts";

const [home, json] = Deno.args;
const { script, ...options } = JSON.parse(json!) as RunOptions & { script: string };
const fx = await agentFixture({ home });
const result = await fx.sh(script, options);
// deno-lint-ignore no-console -- the one line the test reads.
console.log(JSON.stringify(result));
