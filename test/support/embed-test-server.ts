/**
 * The API and the embed host on real loopback listeners, wired as a deployment is: login_url points at
 * the embed host (`http://localhost:<port>`, another site than the `127.0.0.1` pages that frame it), and
 * each partner may list the origins allowed to frame it. For the embed tests and the browser tests.
 */
import createClient from "openapi-fetch";
import type { paths } from "../../generated/types/full.js";
import { createApp, type PartnerApi } from "../../server/assembly/app.js";
import { ManualClock } from "../../server/platform/clock.js";
import { createEmbedApp } from "../../server/embed/embed-app.js";
import { PARTNER_A_KEY, PARTNER_B_KEY, usePersistence } from "./test-server.js";
import { errorLogger } from "./capture-logger.js";
import { emptyTestPersistence } from "./test-persistence.js";
import { listen } from "./listen.js";

export { listen, type Listener } from "./listen.js";

export const CLOCK_START = "2026-11-22T10:00:00Z";

export interface EmbedTestServer extends PartnerApi {
  apiUrl: string;
  /** The embed host's base URL, as login_url carries it: http://localhost:<port>. */
  embedUrl: string;
  clock: ManualClock;
  /** Typed API clients of partner A and partner B. */
  api: ReturnType<typeof createClient<paths>>;
  otherPartner: ReturnType<typeof createClient<paths>>;
  /** What the API and the embed host logged (refused CSRF checks, unexpected errors). */
  logs: string[];
  /** A fresh login_url for a user of partner A (created if new). */
  loginUrl(userIdentifier?: string): Promise<string>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface EmbedTestServerOptions {
  /** Origins allowed to frame partner A's interface; partner B has none. */
  embedOrigins?: string[];
}

export async function startEmbedTestServer(options: EmbedTestServerOptions = {}): Promise<EmbedTestServer> {
  const clock = new ManualClock(CLOCK_START);
  const logs: string[] = [];
  const log = (message: string, error?: unknown) =>
    logs.push(error ? `${message} ${error instanceof Error ? error.stack : String(error)}` : message);
  const [apiListener, embedListener] = await Promise.all([listen(), listen()]);
  const embedUrl = `http://localhost:${embedListener.port}`;
  const partnerApi = createApp({
    persistence: await emptyTestPersistence(),
    environment: "sandbox",
    embedBaseUrl: embedUrl,
    clock,
    random: () => 0,
    partners: [
      { partner: { id: "partner_a", name: "Partner A" }, keys: [PARTNER_A_KEY], embedOrigins: options.embedOrigins ?? [] },
      { partner: { id: "partner_b", name: "Partner B" }, keys: [PARTNER_B_KEY] },
    ],
    // The API's unexpected errors land in the same list as the embed host's.
    logger: errorLogger(log),
  });
  apiListener.serve(partnerApi.app);
  embedListener.serve(createEmbedApp(partnerApi.services, { log }));
  const client = (key: string) => createClient<paths>({ baseUrl: apiListener.url, headers: { Authorization: `Bearer ${key}` } });
  const api = client(PARTNER_A_KEY);
  return {
    ...partnerApi,
    apiUrl: apiListener.url,
    embedUrl,
    clock,
    api,
    otherPartner: client(PARTNER_B_KEY),
    logs,
    async loginUrl(userIdentifier = "u1") {
      const { data, response } = await api.POST("/api/v1/users", { body: { user_identifier: userIdentifier } });
      if (response.status !== 201) throw new Error(`POST /api/v1/users answered ${response.status}`);
      return data!.login_url;
    },
    async reset() {
      usePersistence(partnerApi, await emptyTestPersistence());
      partnerApi.outbox.events.length = 0;
      clock.set(CLOCK_START);
      logs.length = 0;
    },
    close: async () => {
      await Promise.all([apiListener.close(), embedListener.close()]);
    },
  };
}
