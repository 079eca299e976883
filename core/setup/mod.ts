/**
 * Setting a machine up for Link: the system's programs it needs (bubblewrap, util-linux's),
 * installed with the package manager that is there, then a first agent made and started.
 * @module
 */
/** The package managers Link knows and how each installs without asking. */
export { PACKAGE_MANAGERS, type PackageManager } from "./package_managers.ts";
/** What would be installed, and the exact commands. */
export { type InstallPlan, planInstall, type PlanOptions } from "./install_plan.ts";
/** `lnk setup`: install, then create and start `main`. */
export { setUp, type SetUpOptions, type SetUpResult } from "./set_up.ts";
