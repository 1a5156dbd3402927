/**
 * The reference server in-process as the conformance kit's target in `npm test`: the API and the
 * embed host on loopback listeners, wired as a deployment is, two partners (and a revoked key of
 * the first), webhooks sent as soon as they are due, the system clock, the description's limits
 * scaled up so the whole kit runs without waiting for windows.
 *
 * The keys come the three ways a deployment's do, so the kit's checks go through each way's
 * lookup: the first partner is configured and its keys were made in the dashboard (stored, the
 * revoked one revoked there), the second partner and its key are in the partners file the server
 * follows (`npm run keys`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type PartnerApi } from "../../server/assembly/app.js";
import { hashApiKey, type Partner } from "../../server/partners/keys/api-keys.js";
import { newStoredKey } from "../../server/partners/keys/key-management.js";
import { writePartnersFile } from "../../server/partners/keys/partners-file.js";
import { createEmbedApp } from "../../server/embed/embed-app.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../server/platform/rate-limits/policy.js";
import { errorLogger } from "./capture-logger.js";
import { emptyTestPersistence } from "./test-persistence.js";
import { listen } from "./listen.js";

export const KIT_KEY = "sk_sandbox_kitTargetPartnerA000000000000";
export const KIT_SECOND_KEY = "sk_sandbox_kitTargetPartnerB000000000000";
export const KIT_REVOKED_KEY = "sk_sandbox_kitTargetPartnerArevoked00000";
/** The kit's key options for this target (describeTarget's apiKey, secondKey and revokedKey). */
export const KIT_KEYS = { apiKey: KIT_KEY, secondKey: KIT_SECOND_KEY, revokedKey: KIT_REVOKED_KEY } as const;
const PARTNER_A: Partner = { id: "kit_a", name: "Kit Partner A" };
const PARTNER_B: Partner = { id: "kit_b", name: "Kit Partner B" };
/** As conformance:ci starts the built server: the kit makes a few hundred calls a minute. */
const RATE_LIMIT_SCALE = 100;

export interface KitTargetServer extends PartnerApi {
  apiUrl: string;
  embedUrl: string;
  /** Unexpected errors (500s) the API and the embed host logged: a check that caused one fails. */
  errors: string[];
  close(): Promise<void>;
}

export interface KitTargetOptions {
  /**
   * The server's own response validation; default on, off when PARTNER_API_VALIDATE_RESPONSES is
   * "off" (the kit against a mutant must see what another implementation, without one, would answer).
   */
  validateResponses?: boolean;
}

export async function startKitTargetServer(options: KitTargetOptions = {}): Promise<KitTargetServer> {
  const errors: string[] = [];
  const log = (message: string, error?: unknown) =>
    errors.push(error ? `${message} ${error instanceof Error ? error.stack : String(error)}` : message);
  const [apiListener, embedListener] = await Promise.all([listen(), listen()]);
  const embedUrl = `http://localhost:${embedListener.port}`;
  const persistence = await emptyTestPersistence();
  const now = new Date();
  for (const [key, name] of [
    [KIT_KEY, "Conformance kit"],
    [KIT_REVOKED_KEY, "Revoked"],
  ] as const)
    await persistence.apiKeys.addKey(newStoredKey(PARTNER_A, "sandbox", name, now, key).stored);
  await persistence.apiKeys.revokeKey(hashApiKey(KIT_REVOKED_KEY).toString("hex"));
  const partnersDirectory = mkdtempSync(join(tmpdir(), "kit-target-"));
  const partnersFile = join(partnersDirectory, "partners.json");
  writePartnersFile(partnersFile, {
    partners: [{ ...PARTNER_B, environment: "sandbox", key_hashes: [hashApiKey(KIT_SECOND_KEY).toString("hex")] }],
  });
  const partnerApi = createApp({
    persistence,
    environment: "sandbox",
    embedBaseUrl: embedUrl,
    deliverWebhooksPromptly: true,
    rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, RATE_LIMIT_SCALE),
    validateResponses: options.validateResponses ?? process.env.PARTNER_API_VALIDATE_RESPONSES !== "off",
    partners: [{ partner: PARTNER_A }],
    partnersFile,
    logger: errorLogger(log),
  });
  // As `npm start` does: test events, redeliveries and retries made due by a sandbox clock
  // advance are queued without an event to prompt a tick; a second's tick sends them.
  const dispatchTicks = setInterval(
    () => void partnerApi.services.webhooks.dispatcher.tick().catch((error) => log("webhook dispatch failed", error)),
    1000,
  );
  apiListener.serve(partnerApi.app);
  embedListener.serve(createEmbedApp(partnerApi.services, { log }));
  return {
    ...partnerApi,
    apiUrl: apiListener.url,
    embedUrl,
    errors,
    close: async () => {
      clearInterval(dispatchTicks);
      await partnerApi.services.webhooks.dispatcher.idle();
      await Promise.all([apiListener.close(), embedListener.close()]);
      await partnerApi.services.persistence.close();
      rmSync(partnersDirectory, { recursive: true, force: true });
    },
  };
}
