import { GITHUB_SIFT } from "./github_sift.ts";
import { SECRET_SIFT } from "./secret_sift.ts";
import type { Sift } from "./sift.ts";

/** The sift plugins Link has, by name (WHK-3). */
export const SIFTS: ReadonlyMap<string, Sift> = new Map([GITHUB_SIFT, SECRET_SIFT].map((s) => [s.name, s]));
