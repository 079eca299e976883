import type { Command } from "../command.ts";
import { grantCommand } from "./allow.ts";

export const deny: Command = grantCommand("deny");
