import process from "node:process";

// grammY's Node build loads node-fetch, whose URL library warns that `punycode` is deprecated, on
// stderr, the bridge's log, at every start. The warning is the library's, not the person's to act
// on: this module runs before grammY loads (it is mod.ts's first import).
(process as { noDeprecation?: boolean }).noDeprecation = true;
