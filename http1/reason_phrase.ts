/** The reason phrases of the statuses Link's servers answer with (RFC 9110 section 15). */
const REASONS: Record<number, string> = {
  100: "Continue",
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** A status line's reason phrase for `status`: its own, or "Status" for one not listed (any will do). */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? "Status";
}
