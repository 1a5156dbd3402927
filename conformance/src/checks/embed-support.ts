/** The embedded interface seen as a browser sees it: a login_url opened, its cookie sent back, the headers it answers. */
import { expect } from "expect";

export interface EmbedAnswer {
  url: string;
  status: number;
  headers: Headers;
  /** The `name=value` of the cookie the answer sets (its first), or null. */
  cookie: string | null;
  /** The attributes the cookie is set with, lower case (`httponly`, `secure`, `samesite=none`, `max-age=...`). */
  cookieAttributes: string[];
  body: string;
}

/** Fetches a page of the embed host as a browser would, without following redirects. */
export async function openEmbedPage(url: string, cookie?: string | null): Promise<EmbedAnswer> {
  const response = await fetch(url, { redirect: "manual", headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) } });
  const [first] = response.headers.getSetCookie();
  const [pair, ...attributes] = (first ?? "").split(";").map((part) => part.trim());
  return {
    url,
    status: response.status,
    headers: response.headers,
    cookie: first ? pair! : null,
    cookieAttributes: attributes.map((attribute) => attribute.toLowerCase()),
    body: await response.text(),
  };
}

/** Whether the cookie set ends the session (an empty value, or an age of 0). */
export const clearsCookie = (answer: EmbedAnswer) =>
  answer.cookie !== null && (/=$/.test(answer.cookie) || answer.cookieAttributes.includes("max-age=0"));

const describe = (answer: EmbedAnswer) =>
  `GET ${answer.url} answered ${answer.status}${answer.headers.get("location") ? ` to ${answer.headers.get("location")}` : ""}${answer.cookie ? `, setting ${answer.cookie.split("=")[0]}` : ""}: ${answer.body.slice(0, 160)}`;

/** Fails unless the answer has one of `statuses`, saying what it was. */
export function expectEmbedStatus(answer: EmbedAnswer, statuses: number[], why: string): void {
  if (!statuses.includes(answer.status)) throw new Error(`${why}: ${describe(answer)}; expected ${statuses.join(" or ")}`);
}

/** The framing and privacy headers every page of the embed host answers (docs/embedded-interface.md). */
export function expectEmbedHeaders(answer: EmbedAnswer, why: string): void {
  const policy = answer.headers.get("content-security-policy") ?? "";
  const headers = {
    frameAncestors: /(^|;)\s*frame-ancestors\s+[^;]+/.test(policy),
    cacheControl: answer.headers.get("cache-control"),
    referrerPolicy: answer.headers.get("referrer-policy"),
  };
  if (!headers.frameAncestors || headers.cacheControl !== "no-store" || headers.referrerPolicy !== "no-referrer")
    throw new Error(
      `${why}: ${describe(answer)}; expected Content-Security-Policy with frame-ancestors (got ${JSON.stringify(policy)}), Cache-Control no-store (got ${headers.cacheControl}), Referrer-Policy no-referrer (got ${headers.referrerPolicy})`,
    );
}

/**
 * A refused page: an ended or unknown session. It shows no data and starts no session (a cookie it
 * sets can only clear one).
 */
export function expectRefusedPage(answer: EmbedAnswer, statuses: number[], why: string): void {
  expectEmbedStatus(answer, statuses, why);
  expectEmbedHeaders(answer, why);
  if (answer.cookie !== null && !clearsCookie(answer)) throw new Error(`${why}: ${describe(answer)}; a refused page set a session cookie`);
}

/** Opens a login_url: 303 to a page of the same host without the token, with a session cookie fit for an iframe. */
export async function openLoginUrl(loginUrl: string, why: string): Promise<{ page: string; cookie: string; answer: EmbedAnswer }> {
  const answer = await openEmbedPage(loginUrl);
  expectEmbedStatus(answer, [303], why);
  expectEmbedHeaders(answer, why);
  const location = answer.headers.get("location");
  if (!location) throw new Error(`${why}: the 303 has no Location`);
  const page = new URL(location, loginUrl);
  const token = new URL(loginUrl).pathname.split("/").pop()!;
  expect({ pageOrigin: page.origin, tokenInPage: page.href.includes(token) }).toEqual({
    pageOrigin: new URL(loginUrl).origin,
    tokenInPage: false,
  });
  if (!answer.cookie || clearsCookie(answer)) throw new Error(`${why}: ${describe(answer)}; no session cookie`);
  // Framed by another site, the cookie is sent only if SameSite=None (which browsers take only with Secure); HttpOnly keeps it from scripts.
  for (const attribute of ["httponly", "secure", "samesite=none"])
    if (!answer.cookieAttributes.includes(attribute))
      throw new Error(`${why}: the session cookie lacks ${attribute} (set with: ${answer.cookieAttributes.join("; ")})`);
  return { page: page.href, cookie: answer.cookie, answer };
}

/** The cookie's Max-Age in seconds, or null. */
export function maxAgeOf(answer: EmbedAnswer): number | null {
  const attribute = answer.cookieAttributes.find((a) => a.startsWith("max-age="));
  return attribute ? Number(attribute.slice("max-age=".length)) : null;
}
