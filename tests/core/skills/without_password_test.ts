import assert from "node:assert/strict";
import { redactedIn, withoutPassword } from "../../../core/skills/without_password.ts";

Deno.test("withoutPassword() writes a URL's password or token as *** and leaves any other URL as it is", () => {
  assert.equal(withoutPassword("https://me:ghp_s3cret@github.com/o/r"), "https://me:***@github.com/o/r");
  assert.equal(withoutPassword("https://ghp_s3cret@github.com/o/r"), "https://***@github.com/o/r");
  assert.equal(withoutPassword("ssh://git@example.org/r"), "ssh://***@example.org/r");
  assert.equal(withoutPassword("https://github.com/o/r"), "https://github.com/o/r");
  assert.equal(withoutPassword("git@example.org:o/r.git"), "git@example.org:o/r.git");
  assert.equal(withoutPassword("/srv/a@b/r"), "/srv/a@b/r");
});

Deno.test("redactedIn() takes the URL's secret out of git's words", () => {
  assert.equal(
    redactedIn("fatal: unable to access 'https://me:s3cret@h/r/': 403 for s3cret", "https://me:s3cret@h/r"),
    "fatal: unable to access 'https://me:***@h/r/': 403 for ***",
  );
  assert.equal(redactedIn("fatal: nope", "https://h/r"), "fatal: nope");
});
