/**
 * The command line: one file per command, mirroring `lnk ...`; each group lists its commands. A
 * command imports what it calls (agents, sandboxes, connections) in its `run`, with `import()`, so
 * the tree and every help load cmd/ and core/base/ alone (tests/cmd/lazy_commands_test.ts).
 * @module
 */
/** Every command of `lnk`, as a tree of groups. */
export { ROOT } from "./root.ts";
/** Runs one command line and returns its exit code. */
export { runCli } from "./run_cli.ts";
/** What a command is, a group of them, and what a command may touch. */
export type { Command, Group, Io } from "./command.ts";
/** The Io of a real terminal. */
export { terminalIo } from "./terminal_io.ts";
