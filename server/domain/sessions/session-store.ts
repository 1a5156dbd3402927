/** Users' login sessions and the browser sessions opened from them, as stored, and the port of their store. */

export interface SessionRow {
  tokenHash: string;
  partnerId: string;
  userIdentifier: string;
  expiresAt: Date;
  /** The embedded interface's language the partner chose for this session (a canonical BCP 47 tag), or null to follow the browser. */
  locale: string | null;
}

/**
 * A browser's session in the embedded interface, opened by exchanging a login_url token. It lives
 * as long as the login session it came from (the 24 hours of that token) and ends with it.
 */
export interface EmbedSessionRow {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  idHash: string;
  /** The login session (SessionRow.tokenHash) it was opened from. */
  loginTokenHash: string;
  partnerId: string;
  userIdentifier: string;
  /** Synchronizer token every form of this session carries (CSRF). */
  csrfToken: string;
}

/**
 * What is kept of a browser session whose user was deleted: enough to answer its cookie with the
 * session-ended page (410) and clear it, as the end of its 24 hours does, and nothing of the user.
 */
export interface EndedEmbedSessionRow {
  idHash: string;
  partnerId: string;
  /** When its login session would have ended; the periodic sweep removes the row then. */
  expiresAt: Date;
}

/** Login sessions (login_url) and the embedded interface's browser sessions. */
export interface SessionStore {
  /** Partners with login sessions or what is kept of a deleted user's browser sessions: whose sweep may remove some. */
  partnersWithSessions(): Promise<string[]>;
  saveSession(session: SessionRow): Promise<void>;
  findSession(tokenHash: string): Promise<SessionRow | undefined>;
  /** The token hashes of the user's login sessions, oldest first. */
  sessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]>;
  /** Deletes a login session with the browser sessions opened from it. */
  deleteSession(tokenHash: string): Promise<void>;
  /**
   * Deletes the partner's login sessions that ended by `now` (the partner's time), with the browser
   * sessions opened from them; returns how many login sessions it deleted.
   */
  deleteEndedSessions(partnerId: string, now: Date): Promise<number>;
  saveEmbedSession(session: EmbedSessionRow): Promise<void>;
  findEmbedSession(idHash: string): Promise<EmbedSessionRow | undefined>;
  findEndedEmbedSession(idHash: string): Promise<EndedEmbedSessionRow | undefined>;
  /** The id hashes of the user's browser sessions, oldest first. */
  embedSessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]>;
  deleteEmbedSession(idHash: string): Promise<void>;
}
