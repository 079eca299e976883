import { LinkError } from "../base/mod.ts";
import { missingTools, onPath, type SystemTool } from "../agent/mod.ts";
import { PACKAGE_MANAGERS } from "./package_managers.ts";

/** What `lnk setup` would install, and the commands that install it. */
export interface InstallPlan {
  /** The tools missing from the PATH. */
  readonly missing: readonly SystemTool[];
  /** The packages that bring them, each once. */
  readonly packages: readonly string[];
  /** The package manager found, and the commands to run (with sudo where not root). */
  readonly manager?: string;
  readonly commands: readonly string[][];
  /** The commands as a person types them. */
  readonly shell: string;
}

/** What plans an install: the environment's PATH and whose this process is. */
export interface PlanOptions {
  env: { get(name: string): string | undefined };
  /** This process's uid: root runs the commands itself, anyone else through sudo. */
  uid: number;
}

/**
 * Plans the install of what Link needs and the PATH lacks (bubblewrap, util-linux's setsid and
 * setpriv) with the first package manager found. An empty plan when nothing is missing.
 * UNSUPPORTED when none Link knows is here, or sudo is needed and missing.
 */
export async function planInstall(options: PlanOptions): Promise<InstallPlan> {
  const missing = await missingTools(options.env);
  if (!missing.length) return { missing, packages: [], commands: [], shell: "" };
  const packages = [...new Set(missing.map((t) => t.pkg))];
  let manager;
  for (const known of PACKAGE_MANAGERS) {
    if (!manager && await onPath(known.program, options.env)) manager = known;
  }
  if (!manager) {
    throw new LinkError(
      "UNSUPPORTED",
      `Cannot install ${packages.join(" and ")}: no package manager Link knows is here (${
        PACKAGE_MANAGERS.map((m) => m.program).join(", ")
      })`,
      {
        hint: `Install ${packages.join(" and ")} with this system's own tools, then run \`lnk setup\` again`,
      },
    );
  }
  const sudo = options.uid !== 0;
  const commands = manager.commands(packages).map((argv) => (sudo ? ["sudo", ...argv] : argv));
  const shell = commands.map((argv) => argv.join(" ")).join(" && ");
  if (sudo && !(await onPath("sudo", options.env))) {
    throw new LinkError(
      "UNSUPPORTED",
      `Cannot install ${packages.join(" and ")}: it needs root, and sudo is not here`,
      {
        hint: `Run \`${
          manager.commands(packages).map((a) => a.join(" ")).join(" && ")
        }\` as root, then \`lnk setup\` again`,
      },
    );
  }
  return { missing, packages, manager: manager.program, commands, shell };
}
