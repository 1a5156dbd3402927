/**
 * Partner accounts of the dashboard and the people in them: the interface every store implements
 * (the in-memory one is store/memory/memory-account-store.ts). E-mail addresses are kept as normalized (lower case), one
 * member per address across every partner account.
 */

export type MemberRole = "owner" | "developer";

export interface PartnerAccountRow {
  id: string;
  name: string;
  createdAt: Date;
}

export interface MemberRow {
  id: string;
  partnerId: string;
  email: string;
  /** scrypt hash in the PHC-like form of server/partners/accounts/passwords.ts. */
  passwordHash: string;
  role: MemberRole;
  createdAt: Date;
}

/** An invitation to join a partner account; only the hash of its link's token is kept. */
export interface InvitationRow {
  tokenHash: string;
  partnerId: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/** A sign-up waiting for its address to be confirmed by the link sent to it. */
export interface PendingSignUpRow {
  tokenHash: string;
  email: string;
  partnerName: string;
  passwordHash: string;
  expiresAt: Date;
}

/** A signed-in browser; only the hash of its cookie value is kept. */
export interface DashboardSessionRow {
  idHash: string;
  memberId: string;
  partnerId: string;
  /** Synchronizer token every form of this session carries (CSRF). */
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The demo partner's sign-in and key as `npm start` first printed them (server/assembly/demo-partner.ts),
 * kept so that every instance and every restart on the same store prints them again. In plain text
 * on purpose: they belong to the sandbox's demo partner, and every start prints them anyway.
 */
export interface DemoCredentialsRow {
  partnerId: string;
  password: string;
  /** The hash set with the password: the member holding another means the password was changed in the dashboard. */
  passwordHash: string;
  /** The stored key's id, and the key itself. */
  keyId: string;
  apiKey: string;
}

/** What a change to the members of an account came to: the last owner is never removed or demoted. */
export type MemberChange = "done" | "not_found" | "last_owner";

export interface AccountStore {
  /** Creates the account with its first owner; false (nothing written) when the owner's address is taken. */
  createAccount(partner: PartnerAccountRow, owner: MemberRow): Promise<boolean>;
  findPartner(id: string): Promise<PartnerAccountRow | undefined>;
  findMember(id: string): Promise<MemberRow | undefined>;
  findMemberByEmail(email: string): Promise<MemberRow | undefined>;
  /** Oldest first. */
  membersOf(partnerId: string): Promise<MemberRow[]>;
  /** False (nothing written) when the address already belongs to a member. */
  addMember(member: MemberRow): Promise<boolean>;
  setPasswordHash(memberId: string, passwordHash: string): Promise<void>;
  /** Changes a member's role; never leaves the account without an owner. */
  setRole(partnerId: string, memberId: string, role: MemberRole): Promise<MemberChange>;
  /** Removes a member with its sessions; never the last owner. */
  removeMember(partnerId: string, memberId: string): Promise<MemberChange>;
  /**
   * Moves a member of `fromPartnerId` to `toPartnerId` with `role` (an invitation it accepted),
   * ending its sessions, which belong to the account it leaves; never the last owner of that one.
   */
  moveMember(fromPartnerId: string, memberId: string, toPartnerId: string, role: MemberRole): Promise<MemberChange>;

  saveInvitation(invitation: InvitationRow): Promise<void>;
  findInvitation(tokenHash: string): Promise<InvitationRow | undefined>;
  /** Oldest first. */
  invitationsOf(partnerId: string): Promise<InvitationRow[]>;
  /** Answers whether there was one: a link is used once. */
  deleteInvitation(tokenHash: string): Promise<boolean>;

  savePendingSignUp(signUp: PendingSignUpRow): Promise<void>;
  /** The sign-up, removed: a link is used once. */
  takePendingSignUp(tokenHash: string): Promise<PendingSignUpRow | undefined>;

  saveSession(session: DashboardSessionRow): Promise<void>;
  findSession(idHash: string): Promise<DashboardSessionRow | undefined>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of the member but the one named (a password change keeps the browser that made it). */
  deleteSessionsOf(memberId: string, except?: string): Promise<void>;

  /** Forgets sessions, invitations and sign-ups that ended by `now`. */
  deleteExpired(now: Date): Promise<number>;

  findDemoCredentials(partnerId: string): Promise<DemoCredentialsRow | undefined>;
  /** Keeps `row` unless the partner has credentials already; answers those kept (this row or the earlier ones). */
  claimDemoCredentials(row: DemoCredentialsRow): Promise<DemoCredentialsRow>;
  /**
   * Puts a new key in place of the one whose id is `replacedKeyId`, unless another start replaced
   * it first; answers the credentials kept (with this key or the other start's).
   */
  replaceDemoKey(partnerId: string, replacedKeyId: string, key: { keyId: string; apiKey: string }): Promise<DemoCredentialsRow>;
}
