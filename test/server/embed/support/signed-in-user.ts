/**
 * The embed tests' sign-in, for a test file: an embed test server of its own and, before each test,
 * an empty store, user u1 signed in through a login_url in a fresh browser, the domain
 * adalovelace.com bought for them (unless told otherwise), the start page loaded (its CSRF token is
 * the one the next form post sends) and an empty outbox, so a test sees only the events it causes.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startEmbedTestServer, type EmbedTestServer } from "../../../support/embed-test-server.js";
import { EmbedBrowser } from "./embed-browser.js";

export interface SignedInUserOptions {
  /** The partner's origins allowed to frame the embed host. */
  embedOrigins?: string[];
  /** Whether u1 owns adalovelace.com; true unless false. */
  withDomain?: boolean;
  /** Runs after the domain is bought and before the start page loads. */
  prepare?: (server: EmbedTestServer, domainId: string) => Promise<void>;
  /** The page the browser is on when a test begins; the login_url's own by default. */
  startPage?: (domainId: string) => string;
}

export interface SignedInUser {
  readonly server: EmbedTestServer;
  readonly browser: EmbedBrowser;
  /** adalovelace.com's id ("" without the domain). */
  readonly domainId: string;
}

export function useSignedInUser(options: SignedInUserOptions = {}): SignedInUser {
  let server: EmbedTestServer | undefined;
  let browser: EmbedBrowser | undefined;
  let domainId = "";

  beforeAll(async () => {
    server = await startEmbedTestServer(options.embedOrigins ? { embedOrigins: options.embedOrigins } : {});
  });
  beforeEach(async () => {
    const s = server!;
    await s.reset();
    browser = new EmbedBrowser(s.embedUrl);
    await browser.open(await s.loginUrl("u1"));
    if (options.withDomain === false) return;
    const { data } = await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    domainId = data!.id;
    await options.prepare?.(s, domainId);
    if (options.startPage) await browser.get(options.startPage(domainId));
    s.outbox.events.length = 0;
  });
  afterAll(() => server?.close());

  return {
    get server() {
      if (!server) throw new Error("the embed test server starts in beforeAll: use it inside a hook or a test");
      return server;
    },
    get browser() {
      if (!browser) throw new Error("the browser signs in in beforeEach: use it inside a test");
      return browser;
    },
    get domainId() {
      return domainId;
    },
  };
}
