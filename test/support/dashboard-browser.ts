/**
 * A browser as the dashboard's forms see it, over plain HTTP: it keeps cookies, reads the form
 * token of the last page, and follows nothing on its own (tests look at each redirect).
 */
export interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  /** The form token of the last page that carried one. */
  csrf: string | null = null;

  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: URLSearchParams | FormData; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(this.cookies.size > 0 ? { Cookie: this.cookieHeader() } : {}),
        // A FormData body is multipart: fetch writes its type, with the boundary.
        ...(init.body instanceof URLSearchParams ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        ...init.headers,
      },
      body: init.body,
    });
    this.remember(response.headers);
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, headers: response.headers, text, location: response.headers.get("location") };
  }

  get(path: string): Promise<Page> {
    return this.request("GET", path);
  }

  /** Posts the fields with the form token of the last page (unless the fields give their own `_csrf`). */
  post(path: string, fields: Record<string, string | string[]> = {}, headers: Record<string, string> = {}): Promise<Page> {
    const body = new URLSearchParams();
    if (!("_csrf" in fields) && this.csrf) body.set("_csrf", this.csrf);
    for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
    return this.request("POST", path, { body, headers });
  }

  /** Sends a file as a multipart form does (`<input type="file">`), with the form token of the last page. */
  upload(path: string, field: string, file: { name: string; type: string; bytes: Buffer }): Promise<Page> {
    const body = new FormData();
    if (this.csrf) body.set("_csrf", this.csrf);
    body.set(field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    return this.request("POST", path, { body });
  }

  /** Signs in through the form; answers the page the redirect leads to. */
  async signIn(email: string, password: string): Promise<Page> {
    await this.get("/sign-in");
    const answer = await this.post("/sign-in", { email, password });
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return this.get(answer.location!);
  }
}

/** The text of an HTML page without its tags, spaces collapsed: what a reader sees. */
export const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ")
    .trim();
