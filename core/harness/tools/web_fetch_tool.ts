import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, fail, ok } from "./define_tool.ts";
import type { HarnessTool, ToolContext } from "./harness_tool.ts";
import { htmlToText } from "./html_to_text.ts";
import { toProxyUrl } from "./proxy_url.ts";

/** The most of a response body web_fetch reads. */
export const FETCH_MAX_BYTES = 2 * 1024 * 1024;
/** How long one fetch may take, redirects included. */
export const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const DEFAULT_CHARS = 50_000;

const Args = z.strictObject({
  url: z.string().url().describe("The http or https address to fetch"),
  max_chars: z.number().int().min(1000).max(200_000).optional()
    .describe(`The most characters of text to return; ${DEFAULT_CHARS} by default`),
});

/**
 * web_fetch: GETs a page through the agent's proxy (`ctx.proxy`, the base-URL form) and returns
 * its text, an HTML page reduced to readable text, capped. Redirects are followed through the
 * proxy too. A refusal by the proxy ([internet] hosts, SBX-11) is a result saying so. Without a
 * proxy (an agent run with no sandbox, or network mode "host") the page is fetched directly.
 */
export function webFetchTool(): HarnessTool {
  return defineTool({
    name: "web_fetch",
    description: "Fetch a web page or file by its http(s) address and read it as text (HTML is reduced " +
      "to readable text with links as [text](url)). Only the hosts your grants allow can be reached.",
    args: Args,
    async run({ url, max_chars }, ctx) {
      const timeout = new AbortController();
      const stop = new AbortController();
      ctx.clock.sleep(FETCH_TIMEOUT_MS, stop.signal).then(() => timeout.abort(), () => {});
      try {
        return await fetchText(new URL(url), max_chars ?? DEFAULT_CHARS, ctx, timeout.signal);
      } catch (err) {
        if (err instanceof LinkError) throw err;
        if (timeout.signal.aborted) {
          return fail(`Cannot fetch "${url}": no answer within ${FETCH_TIMEOUT_MS / 1000} seconds`);
        }
        throw new LinkError("REFUSED", `Cannot fetch "${url}": ${hideProxy(err, ctx.proxy?.url)}`);
      } finally {
        stop.abort();
      }
    },
  });
}

async function fetchText(first: URL, maxChars: number, ctx: ToolContext, timeout: AbortSignal) {
  let url = new URL(first);
  url.hash = "";
  const signal = AbortSignal.any([ctx.signal, timeout]);
  for (let hop = 0;; hop++) {
    const response = await fetch(toProxyUrl(url, ctx.proxy?.url), {
      redirect: "manual",
      signal,
      headers: {
        "user-agent": "Link web_fetch",
        accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5",
      },
    });
    const refusal = response.headers.get("link-refused");
    if (refusal !== null) {
      const body = (await response.text()).trim();
      return fail(`Cannot fetch "${url.href}": Link's proxy refused it (${refusal})\n${body}`);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) {
        return fail(`Cannot fetch "${first.href}": more than ${MAX_REDIRECTS} redirects`);
      }
      url = new URL(location, url);
      continue;
    }
    const type = response.headers.get("content-type") ?? "";
    const bytes = await readCapped(response.body, FETCH_MAX_BYTES);
    const head = `URL: ${url.href}\nStatus: ${response.status}${type ? `\nContent-Type: ${type}` : ""}`;
    if (!isText(type, bytes.data)) {
      return ok(
        `${head}\n\n(${bytes.total ?? "unknown"} bytes of ${type || "binary data"}; not shown as text)`,
      );
    }
    const raw = decode(bytes.data, type);
    const text = /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(raw)
      ? htmlToText(raw, url.href)
      : raw;
    const shown = text.length > maxChars
      ? `${text.slice(0, maxChars)}\n\n[Cut at ${maxChars} characters]`
      : text;
    const body = `${head}\n\n${shown}`;
    return response.ok ? ok(body) : fail(body);
  }
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<{ data: Uint8Array; total: number | undefined }> {
  if (body === null) return { data: new Uint8Array(), total: 0 };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= cap) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  const data = new Uint8Array(Math.min(size, cap));
  let at = 0;
  for (const c of chunks) {
    const take = c.subarray(0, data.length - at);
    data.set(take, at);
    at += take.length;
  }
  return { data, total: cut ? undefined : size };
}

function isText(type: string, data: Uint8Array): boolean {
  if (/^(text\/|application\/(json|xml|xhtml|javascript|ld\+json|rss|atom)|[^;]*\+(json|xml))/i.test(type)) {
    return true;
  }
  return type === "" && !data.subarray(0, 8192).includes(0);
}

function decode(data: Uint8Array, type: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(type)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(data);
  } catch {
    return new TextDecoder().decode(data);
  }
}

/** An error's message without the proxy's address, which holds its secret. */
function hideProxy(err: unknown, proxy: string | undefined): string {
  const message = err instanceof Error ? err.message : String(err);
  const base = proxy?.replace(/\/$/, "");
  const shown = base ? message.replaceAll(base, "<proxy>") : message;
  return shown.replace(/\/_link\/s\/[^/\s"']+/g, "/_link/s/<secret>");
}
