import assert from "node:assert/strict";
import { mergeEnv, mergeYamlSections, yamlSection } from "../../../../core/adapters/hermes/hermes_files.ts";

const MODEL = yamlSection("model", {
  provider: "custom",
  base_url: 'http://127.0.0.1:9/v1 "x"',
  default: "m",
});

Deno.test("yamlSection() writes block style, strings double-quoted with JSON's escapes, numbers and booleans bare", () => {
  assert.equal(
    yamlSection("platforms", { api_server: { enabled: false, extra: { host: "127.0.0.1", port: 8642 } } }),
    'platforms:\n  api_server:\n    enabled: false\n    extra:\n      host: "127.0.0.1"\n      port: 8642\n',
  );
  assert.equal(
    MODEL,
    'model:\n  provider: "custom"\n  base_url: "http://127.0.0.1:9/v1 \\"x\\""\n  default: "m"\n',
  );
});

Deno.test("mergeYamlSections() replaces an owned section where it was and keeps every other line, comments and blank lines", () => {
  const text = [
    "# Hermes's config",
    "terminal:",
    "  backend: local",
    "",
    "model:",
    "  default: elsewhere",
    "",
    "  provider: openrouter # theirs",
    "",
    "# the person's own",
    "toolsets:",
    "  - web",
    "",
  ].join("\n");
  assert.equal(
    mergeYamlSections(text, [MODEL]),
    [
      "# Hermes's config",
      "terminal:",
      "  backend: local",
      "",
      ...MODEL.trimEnd().split("\n"),
      "",
      "# the person's own",
      "toolsets:",
      "  - web",
      "",
    ].join("\n"),
  );
});

Deno.test("mergeYamlSections() adds a section that is missing at the end, writes one for an empty file, and once for a key given twice", () => {
  assert.equal(mergeYamlSections("", [MODEL]), MODEL);
  assert.equal(mergeYamlSections("a: 1\n\n\n", [MODEL]), `a: 1\n${MODEL}`);
  assert.equal(mergeYamlSections("model: x\nmodel:\n  default: y\n", [MODEL]), MODEL);
  // Idempotent: what it wrote is what it writes again.
  const once = mergeYamlSections("terminal:\n  backend: local\n", [MODEL]);
  assert.equal(mergeYamlSections(once, [MODEL]), once);
});

Deno.test("mergeEnv() sets Link's variables where they were, adds the rest at the end, and keeps every other line", () => {
  const text = "# keys\nEXA_API_KEY=mine\nexport OPENAI_API_KEY=old\nOPENAI_API_KEY=again\n";
  assert.equal(
    mergeEnv(text, { OPENAI_API_KEY: "link-placeholder", API_SERVER_PORT: "8642" }),
    "# keys\nEXA_API_KEY=mine\nOPENAI_API_KEY=link-placeholder\nAPI_SERVER_PORT=8642\n",
  );
  assert.equal(mergeEnv("", { A: "1" }), "A=1\n");
});
