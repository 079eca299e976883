import { join } from "node:path";
import type { TempHome } from "../../support/mod.ts";

/**
 * Puts a stand-in adapter program `lnk-demo` on the test's PATH: its `needs` answer is the JSON in
 * `needs.json` beside it (so a test can grow them), its endpoint is nothing (Link runs no harness);
 * the input its `endpoint` was asked with is kept in `endpoint-input.json` beside it.
 */
export async function demoAdapter(
  home: TempHome,
  needs: unknown,
): Promise<{ setNeeds(n: unknown): Promise<void> }> {
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const file = join(bin, "needs.json");
  await Deno.writeTextFile(file, JSON.stringify(needs));
  await Deno.writeTextFile(
    join(bin, "lnk-demo"),
    `#!/bin/sh\nread line\ncase "$1" in contract) echo '{"version":2,"fields":[]}';; ` +
      `needs) cat '${file}';; endpoint) echo "$line" > '${join(bin, "endpoint-input.json")}'; echo '{}';; ` +
      `*) echo '{}';; esac\n`,
    { mode: 0o755 },
  );
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  return { setNeeds: (n) => Deno.writeTextFile(file, JSON.stringify(n)) };
}

/** Needs with a path, a port, a required risk and an optional one. */
export const NEEDS = {
  spec: { paths: { read: ["/opt/demo-tool"] }, localhost: { ports: [9000] } },
  why: { paths: "the demo tool's program", localhost: "its local server" },
  risks: [
    { name: "open-port", why: "its server takes requests without a password" },
    {
      name: "managed-browser",
      why: "opens a browser of its own",
      optional: true,
      without: "it reads no web pages",
    },
  ],
};
