import { fileUrlPath } from "./file_path.ts";

/** The checkout Link runs from when it runs from source: where main.ts, deno.json and deno.lock are. */
export const CHECKOUT_DIR: string = fileUrlPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
/** The program's entry, deno.json and the lock that pins every package it loads. */
export const MAIN_PATH = `${CHECKOUT_DIR}/main.ts`;
export const CONFIG_PATH = `${CHECKOUT_DIR}/deno.json`;
export const LOCK_PATH = `${CHECKOUT_DIR}/deno.lock`;
