/** Opening an embedded-interface session from the token in a login_url. */
import { hashSessionToken } from "../handlers/users.js";
import type { Services } from "../context.js";
import type { SessionRow } from "../store/types.js";

export type SessionLookup = { state: "open"; session: SessionRow } | { state: "expired" } | { state: "unknown" };

/** Session tokens are 43 base62 characters; anything else cannot be one, so it is not even hashed. */
const TOKEN = /^[A-Za-z0-9]{43}$/;

/** A session ends 24 hours after it was issued, by the clock of its partner (a sandbox clock moves it). */
export function openSession(services: Services, token: string): SessionLookup {
  if (!TOKEN.test(token)) return { state: "unknown" };
  const session = services.store.findSession(hashSessionToken(token));
  if (!session || !services.store.findUser(session.partnerId, session.userIdentifier)) return { state: "unknown" };
  const now = services.clocks.clockFor(session.partnerId).now();
  return now < session.expiresAt ? { state: "open", session } : { state: "expired" };
}
