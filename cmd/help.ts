import { type Command, type Group, isGroup } from "./command.ts";

/** The help of one command, built from its fields, examples first. */
export function commandHelp(command: Command): string {
  const lines = [
    command.summary,
    "",
    "Examples:",
    ...command.examples.map((e) => `  ${e}`),
    "",
    `Usage: ${command.usage}`,
  ];
  if (command.details) lines.push("", command.details);
  return lines.join("\n");
}

/** The help of a group: its summary and each command under it with its own. */
export function groupHelp(path: readonly string[], group: Group): string {
  const entries = Object.entries(group.commands).filter(([, e]) => isGroup(e) || !e.hidden);
  const width = Math.max(...entries.map(([name]) => name.length));
  const examples = entries.flatMap(([, e]) => (isGroup(e) ? [] : e.examples.slice(0, 1))).slice(0, 4);
  return [
    group.summary,
    "",
    ...(examples.length ? ["Examples:", ...examples.map((e) => `  ${e}`), ""] : []),
    `Usage: ${path.join(" ")} <command> [flags]`,
    "",
    "Commands:",
    ...entries.map(([name, e]) => `  ${name.padEnd(width)}  ${e.summary}`),
    "",
    `Run \`${path.join(" ")} <command> --help\` for a command's flags and examples.`,
    ...(path.length === 1
      ? [`\`${path[0]} --version\` says what runs: Link's version, Deno's, and deno.lock's hash.`]
      : []),
  ].join("\n");
}
