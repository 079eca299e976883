const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/@]*)@/;

/**
 * A URL as it may be shown or kept: a password or token in it (`https://me:<token>@host/...`) is
 * written `***`, so no output, error or JSON of `skill add` carries a credential. A URL without
 * one is returned as it is.
 */
export function withoutPassword(url: string): string {
  const m = USERINFO.exec(url);
  if (!m) return url;
  const user = m[2]!.includes(":") ? `${m[2]!.slice(0, m[2]!.indexOf(":"))}:***` : "***";
  return `${m[1]}${user}@${url.slice(m[0].length)}`;
}

/** Text (git's own words) with the credentials of `url` written `***` wherever they appear. */
export function redactedIn(text: string, url: string): string {
  const m = USERINFO.exec(url);
  if (!m || m[2] === "") return text;
  const secret = m[2]!.includes(":") ? m[2]!.slice(m[2]!.indexOf(":") + 1) : m[2]!;
  return secret === "" ? text : text.split(secret).join("***");
}
