import { join } from "node:path";
import { expandHome } from "../../../sandbox/mod.ts";
import type { CheckSetup } from "./check_setup.ts";
import type { HarnessPolicy } from "./harness_policy.ts";
import type { PlannedCheck } from "./planned_check.ts";

/**
 * The writable place a protected-places check makes its repository in: the agent's Home when its
 * sandbox writes it, else its first [paths] write grant; undefined when it writes neither.
 */
export function protectedCheckPlace(policy: HarnessPolicy, home: string): string | undefined {
  const homeWritable = policy.folders === "home" || policy.spec.files["."] === "write";
  const grant = policy.spec.paths.write[0];
  return homeWritable ? policy.sandboxAgent.home : grant === undefined ? undefined : expandHome(grant, home);
}

/**
 * The protected places check of `lnk agent harness check` (ARCHITECTURE.md section 7): in a
 * repository made in a writable place before the sandbox started, .git/config does not open for
 * writing, no hook and no .vscode settings can be made, while the repository itself is written.
 */
export async function protectedCheck(setup: CheckSetup, repo: string | undefined): Promise<PlannedCheck> {
  const check = "protected places (.git/config, .git/hooks, .vscode)";
  const expected = "read-only";
  if (!repo) {
    return {
      check,
      expected,
      probes: [],
      judge: () => Promise.resolve({ result: "no writable place", ok: true }),
    };
  }
  const [hook, settings, work] = await Promise.all([
    setup.writable(join(repo, ".git", "hooks")),
    setup.writable(join(repo, ".vscode")),
    setup.writable(repo),
  ]);
  const made = [hook, settings].filter((t) => t !== undefined);
  return {
    check,
    expected,
    probes: [
      { kind: "open-write", path: join(repo, ".git", "config") },
      ...made.map((t) => ({ kind: "write" as const, path: t.inside, token: t.token })),
      ...(work ? [{ kind: "write" as const, path: work.inside, token: work.token }] : []),
    ],
    async judge([config, ...rest]) {
      const changed = [config?.done ? ".git/config" : undefined];
      for (const [i, target] of made.entries()) {
        if (rest[i]?.done || await setup.arrived(target)) changed.push(i === 0 ? ".git/hooks" : ".vscode");
      }
      const writes = work ? await setup.arrived(work) : false;
      const open = changed.filter((c) => c !== undefined);
      if (open.length > 0) return { result: `writable: ${open.join(", ")}`, ok: false };
      return { result: writes ? "read-only" : "read-only (its repository not writable either)", ok: writes };
    },
  };
}
