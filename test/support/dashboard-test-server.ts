/**
 * The test server (test/support/test-server.ts) with the partner dashboard on the same services,
 * listening on a port of its own, and a mailer that keeps what it would send. Two dashboard
 * accounts exist after each reset: partner A's owner and partner B's owner, on the API's partners.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { DashboardMail, Mailer } from "../../server/partners/accounts/mailer.js";
import { hashPassword } from "../../server/partners/accounts/passwords.js";
import { createDashboardApp, type DashboardOptions, type PartnerDashboard } from "../../server/dashboard/dashboard-app.js";
import type { PortalFiles } from "../../server/dashboard/portal.js";
import { newId } from "../../server/platform/ids.js";
import { DashboardBrowser } from "./dashboard-browser.js";
import { startTestServer, type TestServer, type TestServerOptions } from "./test-server.js";

/** scrypt's cost in tests: a sixteenth of the default's, the same code. */
export const TEST_PASSWORD_COST = 13;
export const OWNER_A = { email: "owner@partner-a.test", password: "correct horse battery A" };
export const OWNER_B = { email: "owner@partner-b.test", password: "correct horse battery B" };

export interface DashboardTestServer {
  api: TestServer;
  dashboard: PartnerDashboard;
  dashboardUrl: string;
  /** What the dashboard would have e-mailed since the last reset, oldest first. */
  mails: DashboardMail[];
  browser(): DashboardBrowser;
  /** A browser signed in as partner A's owner (or the given member). */
  signedIn(who?: { email: string; password: string }): Promise<DashboardBrowser>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface DashboardTestOptions extends TestServerOptions {
  /** Whether sign-up links reach anyone (a sandbox) or no mail goes out (production without a transport). */
  mailDelivers?: boolean;
  portal?: PortalFiles;
  /** The dashboard's throttles, hashing queue and trusted proxy, where a test sets its own. */
  dashboard?: Pick<DashboardOptions, "trustProxy" | "accountLimits" | "passwordHashing">;
}

export async function startDashboardTestServer(options: DashboardTestOptions = {}): Promise<DashboardTestServer> {
  const api = await startTestServer(options);
  const mails: DashboardMail[] = [];
  const mailer: Mailer = { delivers: options.mailDelivers ?? true, send: (mail) => mails.push(mail) };
  const errors: unknown[] = [];
  const dashboard = createDashboardApp({
    services: api.services,
    baseUrl: "http://dashboard.test",
    apiBaseUrl: api.baseUrl,
    routes: api.routes,
    mailer,
    flushRequestLog: () => api.requests.flush(),
    passwordCost: TEST_PASSWORD_COST,
    log: (message, error) => {
      if (error !== undefined) errors.push(new Error(`${message}: ${String(error)}`, { cause: error }));
    },
    portal: options.portal,
    ...options.dashboard,
  });
  const listening: Server = await new Promise((resolve) => {
    const server = dashboard.app.listen(0, "127.0.0.1", () => resolve(server));
  });
  const dashboardUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  const seedOwners = async () => {
    const { accounts } = api.services.persistence;
    const now = api.clock.now();
    for (const [partner, owner] of [
      [{ id: "partner_a", name: "Partner A" }, OWNER_A],
      [{ id: "partner_b", name: "Partner B" }, OWNER_B],
    ] as const) {
      await accounts.createAccount(
        { ...partner, createdAt: now },
        {
          id: newId("mem"),
          partnerId: partner.id,
          email: owner.email,
          passwordHash: await hashPassword(owner.password, TEST_PASSWORD_COST),
          role: "owner",
          createdAt: now,
        },
      );
    }
  };
  await seedOwners();
  const server: DashboardTestServer = {
    api,
    dashboard,
    dashboardUrl,
    mails,
    browser: () => new DashboardBrowser(dashboardUrl),
    async signedIn(who = OWNER_A) {
      const browser = new DashboardBrowser(dashboardUrl);
      await browser.signIn(who.email, who.password);
      return browser;
    },
    async reset() {
      await api.reset();
      mails.length = 0;
      await seedOwners();
    },
    async close() {
      listening.closeAllConnections();
      await new Promise<void>((resolve) => listening.close(() => resolve()));
      await api.close();
      if (errors.length > 0) throw errors[0];
    },
  };
  return server;
}

/** One dashboard server for a test file, reset before each test. */
export function useDashboardTestServer(options: DashboardTestOptions = {}): DashboardTestServer {
  let server: DashboardTestServer | undefined;
  beforeAll(async () => {
    server = await startDashboardTestServer(options);
  });
  beforeEach(() => server!.reset());
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as DashboardTestServer, { get: (_target, property) => Reflect.get(server!, property) });
}
