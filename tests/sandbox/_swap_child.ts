// Started by the race test: swaps two names in one folder (a folder and a link) atomically, over
// and over (renameat2 RENAME_EXCHANGE), as an agent's second sandbox could while Link starts
// another. Prints "swapping" after the first swap, and runs until killed.
const [dir, a, b] = Deno.args as [string, string, string];
const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;
const lib = Deno.dlopen("libc.so.6", {
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
});
const name = (n: string) => new TextEncoder().encode(`${dir}/${n}\0`);
const [from, to] = [name(a), name(b)];
let swaps = 0;
for (;;) {
  if (lib.symbols.renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE) !== 0) {
    Deno.stderr.writeSync(new TextEncoder().encode("renameat2 failed\n"));
    Deno.exit(1);
  }
  if (++swaps === 1) Deno.stdout.writeSync(new TextEncoder().encode("swapping\n"));
}
