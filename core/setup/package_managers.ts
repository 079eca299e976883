/** A system package manager Link can install its tools with, and how it installs without asking. */
export interface PackageManager {
  /** The program on the PATH. */
  readonly program: string;
  /** The commands that install `packages`, each an argv, run in order. */
  commands(packages: readonly string[]): string[][];
}

/** The package managers Link knows, in the order they are looked for. */
export const PACKAGE_MANAGERS: readonly PackageManager[] = Object.freeze([
  {
    program: "apt-get",
    // A fresh machine (a container, say) may have no package lists yet.
    commands: (p) => [["apt-get", "update"], ["apt-get", "install", "-y", ...p]],
  },
  { program: "dnf", commands: (p) => [["dnf", "install", "-y", ...p]] },
  { program: "pacman", commands: (p) => [["pacman", "-S", "--needed", "--noconfirm", ...p]] },
  { program: "zypper", commands: (p) => [["zypper", "--non-interactive", "install", ...p]] },
  { program: "apk", commands: (p) => [["apk", "add", ...p]] },
]);
