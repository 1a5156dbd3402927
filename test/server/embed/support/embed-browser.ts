/**
 * A browser without a browser, for the embed tests: keeps the session cookie, follows redirects by
 * hand (so each hop can be inspected), sends forms with the CSRF token of the page it last loaded and
 * the Fetch Metadata a browser would send for a same-origin form post.
 */
export interface EmbedPage {
  status: number;
  html: string;
  headers: Headers;
  /** The address answered last, after redirects. */
  url: string;
  /** Every redirect on the way, with its headers. */
  redirects: Array<{ status: number; location: string; headers: Headers }>;
}

export interface PostOptions {
  /** The CSRF token sent: the last page's by default, null for none. */
  csrf?: string | null;
  /** Added to (or, null, removed from) the headers of a same-origin form post. */
  headers?: Record<string, string | null>;
}

const SAME_ORIGIN_FORM_POST = { "sec-fetch-site": "same-origin", origin: "null" };

export class EmbedBrowser {
  cookie: string | null = null;
  lastPage: EmbedPage | null = null;

  constructor(readonly embedUrl: string) {}

  /** Opens a login_url as an iframe would: GET, then follow the redirect with the cookie it set. */
  open(loginUrl: string): Promise<EmbedPage> {
    return this.request(loginUrl, { method: "GET" });
  }

  get(path: string): Promise<EmbedPage> {
    return this.request(new URL(path, this.embedUrl).toString(), { method: "GET" });
  }

  /** Sends the fields as a form does; a list of values sends the field once per value, as a tampered form might. */
  post(path: string, fields: Record<string, string | readonly string[]>, options: PostOptions = {}): Promise<EmbedPage> {
    const csrf = options.csrf === undefined ? this.csrfToken() : options.csrf;
    const entries = Object.entries<string | readonly string[]>({ ...fields, ...(csrf === null ? {} : { _csrf: csrf }) });
    const body = new URLSearchParams(
      entries.flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : value.map((one) => [name, one]))),
    );
    return this.request(new URL(path, this.embedUrl).toString(), {
      method: "POST",
      body,
      headers: Object.fromEntries(
        Object.entries({ "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN_FORM_POST, ...options.headers }).filter(
          (entry): entry is [string, string] => entry[1] !== null,
        ),
      ),
    });
  }

  csrfToken(): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(this.lastPage?.html ?? "");
    if (!match) throw new Error("the last page has no form with a CSRF token");
    return match[1]!;
  }

  private async request(
    url: string,
    init: { method: string; body?: URLSearchParams; headers?: Record<string, string> },
  ): Promise<EmbedPage> {
    const redirects: EmbedPage["redirects"] = [];
    let response = await this.fetch(url, init);
    while (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location")!;
      redirects.push({ status: response.status, location, headers: response.headers });
      url = new URL(location, url).toString();
      response = await this.fetch(url, { method: "GET" });
    }
    const page = { status: response.status, html: await response.text(), headers: response.headers, url, redirects };
    this.lastPage = page;
    return page;
  }

  private async fetch(url: string, init: { method: string; body?: URLSearchParams; headers?: Record<string, string> }): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, ...(this.cookie ? { cookie: this.cookie } : {}) },
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      const [pair] = setCookie.split(";");
      this.cookie = /=$/.test(pair!) || /Max-Age=0/.test(setCookie) ? null : pair!;
    }
    return response;
  }
}

/** The text of a page without tags, whitespace collapsed: what a reader sees. */
export const textOf = (html: string) =>
  html
    // A line-break opportunity inside a word is no space.
    .replace(/<wbr>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
