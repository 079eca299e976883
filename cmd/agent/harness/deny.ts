import type { Command } from "../../command.ts";
import { harnessAnswerCommand } from "./allow.ts";

export const deny: Command = harnessAnswerCommand("deny");
