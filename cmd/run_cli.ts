import { errorWire, LinkError, toLinkError } from "../core/base/mod.ts";
import { type Command, type Group, type Io, isGroup } from "./command.ts";
import { didYouMean } from "./did_you_mean.ts";
import { commandHelp, groupHelp } from "./help.ts";
import { ROOT } from "./root.ts";

/** Runs one command line and returns its exit code: 0 success, 1 failure, 2 usage. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const json = argv.includes("--json");
  try {
    return await dispatch([...argv], io);
  } catch (err) {
    const error = toLinkError(err);
    // --json prints the one wire shape Link's own processes speak, so a program reads it back alike.
    if (json) io.print(errorWire(error));
    else {io.note(
        `error: ${error.message}${error.hint ? `\n  hint: ${error.hint.replaceAll("\n", "\n  ")}` : ""}`,
      );}
    if (error.code === "INTERNAL" && error.cause instanceof Error && io.env.get("LNK_LOG") === "debug") {
      io.note(error.cause.stack ?? String(error.cause));
    }
    return error.code === "USAGE" ? 2 : 1;
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const path = ["lnk"];
  let entry: Command | Group = ROOT;
  while (isGroup(entry)) {
    const word = argv[0];
    if (path.length === 1 && (word === "--version" || word === "-V")) {
      return await (await import("./version.ts")).printVersion(io, argv.includes("--json"));
    }
    if (word === undefined || word.startsWith("-")) {
      const help = word === "--help" || word === "-h";
      if (!help && word !== undefined) {
        throw new LinkError("USAGE", `Cannot run "${path.join(" ")} ${word}": a command comes first`, {
          hint: `Run \`${path.join(" ")} --help\` to see its commands`,
        });
      }
      if (help) io.print(groupHelp(path, entry));
      else io.note(groupHelp(path, entry));
      return help ? 0 : 2;
    }
    const next: Command | Group | undefined = Object.hasOwn(entry.commands, word)
      ? entry.commands[word]
      : undefined;
    if (!next) return await unknown(path, entry, argv, io);
    entry = next;
    path.push(word);
    argv.shift();
  }
  const dash = argv.indexOf("--");
  const flags = dash >= 0 ? argv.slice(0, dash) : argv;
  if (flags.includes("--help") || flags.includes("-h")) {
    io.print(commandHelp(entry));
    return 0;
  }
  const code = await entry.run(argv, io);
  return typeof code === "number" ? code : 0;
}

async function unknown(path: string[], group: Group, argv: string[], io: Io): Promise<number> {
  const word = argv[0]!;
  if (path.length === 1) {
    const { findPlugin, runPlugin } = await import("../core/plugins/mod.ts");
    const plugin = await findPlugin(word, io.env);
    if (plugin) return await runPlugin(plugin, argv.slice(1), { env: io.env.toObject() });
  }
  const names = Object.entries(group.commands).filter(([, e]) => isGroup(e) || !e.hidden).map(([n]) => n);
  const guess = didYouMean(word, names);
  throw new LinkError("USAGE", `Cannot run "${path.join(" ")} ${word}": unknown command`, {
    hint: guess
      ? `Did you mean \`${path.join(" ")} ${guess}\`?`
      : `Run \`${path.join(" ")} --help\` to see its commands`,
  });
}
