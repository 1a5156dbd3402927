/**
 * Signed-in dashboard browsers. The cookie holds a random value; the store keeps only its hash,
 * with the member, the partner and the form token (CSRF) of the session. Signing in always makes
 * a new session (a value planted before sign-in is never promoted: no session fixation), and a
 * session ends after SESSION_MS whatever its use, or when its member signs out, is removed, or
 * changes the password elsewhere.
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../../platform/clock.js";
import type { AccountStore, DashboardSessionRow, MemberRow, PartnerAccountRow } from "./account-store.js";
import { tokenHash } from "./accounts.js";

export const SESSION_MS = 12 * 3_600_000;

export interface SignedIn {
  session: DashboardSessionRow;
  member: MemberRow;
  partner: PartnerAccountRow;
}

export class DashboardSessions {
  constructor(
    /** Read at each use: tests point a deployment at fresh stores. */
    private readonly store: () => AccountStore,
    private readonly clock: Clock,
  ) {}

  /** A new session of the member; answers the cookie value and the session's remaining seconds. */
  async start(member: MemberRow, replacing?: string): Promise<{ value: string; maxAgeSeconds: number }> {
    if (replacing) await this.store().deleteSession(tokenHash(replacing));
    const value = randomBytes(32).toString("base64url");
    const now = this.clock.now();
    await this.store().saveSession({
      idHash: tokenHash(value),
      memberId: member.id,
      partnerId: member.partnerId,
      csrfToken: randomBytes(32).toString("base64url"),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
    });
    return { value, maxAgeSeconds: SESSION_MS / 1000 };
  }

  /** The session a cookie value names, with its member and account; null when there is none or it ended. */
  async resume(value: string | undefined): Promise<SignedIn | null> {
    if (!value || value.length > 100) return null;
    const session = await this.store().findSession(tokenHash(value));
    if (!session || session.expiresAt <= this.clock.now()) return null;
    const [member, partner] = await Promise.all([this.store().findMember(session.memberId), this.store().findPartner(session.partnerId)]);
    return member && partner ? { session, member, partner } : null;
  }

  async end(value: string): Promise<void> {
    await this.store().deleteSession(tokenHash(value));
  }
}
