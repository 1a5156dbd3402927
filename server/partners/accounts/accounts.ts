/**
 * Dashboard accounts: sign-up confirmed by a link sent to the address, sign-in, password change,
 * invitations. Messages never tell whether an address has an account: sign-up answers the same for
 * a new address and a taken one (the link goes to the address either way), and sign-in failures
 * read alike and take alike long, known address or not. Every password is hashed or checked in the
 * hashing queue, and every attempt with one passes its throttle first (server/partners/accounts/password-throttles.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../../platform/clock.js";
import { newId } from "../../platform/ids.js";
import type { WindowStore } from "../../platform/rate-limits/window-store.js";
import { type AccountLimits, DEFAULT_ACCOUNT_LIMITS } from "./account-limits.js";
import type { AccountStore, InvitationRow, MemberRole, MemberRow, PartnerAccountRow } from "./account-store.js";
import type { Mailer } from "./mailer.js";
import type { PasswordHashingQueue } from "./password-hashing-queue.js";
import { SignInThrottle, SignUpThrottle } from "./password-throttles.js";
import { DEFAULT_COST, hashPassword, passwordProblem, verifyPassword } from "./passwords.js";

/** How long a sign-up link and an invitation stay valid. */
export const SIGN_UP_LINK_MS = 24 * 3_600_000;
export const INVITATION_MS = 7 * 86_400_000;
const MAX_EMAIL_LENGTH = 254;
export const MAX_PARTNER_NAME_LENGTH = 100;

export interface AccountDeps {
  accounts: AccountStore;
  /** Counters of password attempts and sign-ups, shared by every instance (the rate limiter's store). */
  attempts: WindowStore;
  clock: Clock;
  mailer: Mailer;
  /** The dashboard's own base URL, for links in messages. */
  baseUrl: string;
  /** Where every scrypt runs (one per process). */
  hashing: PasswordHashingQueue;
  /** The throttles' figures; tests lower some. */
  limits?: Partial<AccountLimits>;
  /** log2 of scrypt's N (server/partners/accounts/passwords.ts); tests lower it. */
  passwordCost?: number;
}

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
export const newToken = () => randomBytes(32).toString("base64url");

/** An address as kept and compared: trimmed and in lower case; null when it is none. */
export function normalizedEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return null;
  return email;
}

export function partnerNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return "Enter your company's name.";
  if (trimmed.length > MAX_PARTNER_NAME_LENGTH) return `Use at most ${MAX_PARTNER_NAME_LENGTH} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "The name cannot hold control characters.";
  return null;
}

/** Field problems of a form, by field name. */
export type FieldProblems = Record<string, string>;

/** Why an invitation was not accepted: the link ended, the account's password is not right, or it is its account's last owner. */
export type InvitationRefusal = "expired" | "wrong_password" | "last_owner";

export class AccountProblem extends Error {
  constructor(readonly fields: FieldProblems) {
    super(Object.values(fields).join(" "));
  }
}

export class Accounts {
  /** A hash of a password nobody has, verified for unknown addresses so a miss takes as long as a wrong password. */
  private decoy: Promise<string> | null = null;
  private readonly signInThrottle: SignInThrottle;
  private readonly signUpThrottle: SignUpThrottle;

  constructor(private readonly deps: AccountDeps) {
    const throttleDeps = {
      get attempts() {
        return deps.attempts;
      },
      clock: deps.clock,
      limits: { ...DEFAULT_ACCOUNT_LIMITS, ...deps.limits },
    };
    this.signInThrottle = new SignInThrottle(throttleDeps);
    this.signUpThrottle = new SignUpThrottle(throttleDeps);
  }

  private get cost(): number {
    return this.deps.passwordCost ?? DEFAULT_COST;
  }

  /** `mayWait: false` for anonymous sign-ups, which run only where a place is free (server/partners/accounts/password-hashing-queue.ts). */
  private hash(password: string, { mayWait = true } = {}): Promise<string> {
    return this.deps.hashing.run(() => hashPassword(password, this.cost), { mayWait });
  }

  private verify(password: string, hash: string): Promise<boolean> {
    return this.deps.hashing.run(() => verifyPassword(password, hash));
  }

  /**
   * Starts a sign-up: checks the form, then sends the address a link. A taken address gets a
   * message saying so instead, and the caller sees the same answer either way. Throws RetryLater
   * when the client or everyone signed up too often, or the hashing queue is full.
   */
  async requestSignUp(form: { email: string; password: string; partnerName: string }, client: string): Promise<{ email: string }> {
    const email = normalizedEmail(form.email);
    const problems: FieldProblems = {};
    if (!email) problems.email = "Enter an e-mail address such as name@example.com.";
    const nameProblem = partnerNameProblem(form.partnerName);
    if (nameProblem) problems.partner_name = nameProblem;
    const weak = passwordProblem(form.password, form.email);
    if (weak) problems.password = weak;
    if (Object.keys(problems).length > 0) throw new AccountProblem(problems);
    await this.signUpThrottle.admit(client);
    const now = this.deps.clock.now();
    if (await this.deps.accounts.findMemberByEmail(email!)) {
      // The hash is not needed, but its time is: a taken address answers as late as a new one.
      await this.hash(form.password, { mayWait: false });
      this.deps.mailer.send({
        to: email!,
        subject: "You already have a partner dashboard account",
        link: `${this.deps.baseUrl}/sign-in`,
        text: "Someone tried to sign up with this address, which already has an account. Sign in instead; if it was not you, nothing changed.",
      });
      return { email: email! };
    }
    const token = newToken();
    await this.deps.accounts.savePendingSignUp({
      tokenHash: tokenHash(token),
      email: email!,
      partnerName: form.partnerName.trim(),
      passwordHash: await this.hash(form.password, { mayWait: false }),
      expiresAt: new Date(now.getTime() + SIGN_UP_LINK_MS),
    });
    this.deps.mailer.send({
      to: email!,
      subject: "Confirm your partner dashboard account",
      link: `${this.deps.baseUrl}/sign-up/confirm/${token}`,
      text: "Open the link to create your partner account. It works once, for 24 hours.",
    });
    return { email: email! };
  }

  /** Creates the account a sign-up link confirms; null when the link is unknown, used or expired, or the address was taken meanwhile. */
  async confirmSignUp(token: string): Promise<MemberRow | null> {
    const signUp = await this.deps.accounts.takePendingSignUp(tokenHash(token));
    const now = this.deps.clock.now();
    if (!signUp || signUp.expiresAt <= now) return null;
    const partner: PartnerAccountRow = { id: newId("ptn"), name: signUp.partnerName, createdAt: now };
    const owner: MemberRow = {
      id: newId("mem"),
      partnerId: partner.id,
      email: signUp.email,
      passwordHash: signUp.passwordHash,
      role: "owner",
      createdAt: now,
    };
    return (await this.deps.accounts.createAccount(partner, owner)) ? owner : null;
  }

  /** Makes an account at once, without a link (the sandbox's demo account, tests); false when the address is taken. */
  async createAccount(partner: PartnerAccountRow, email: string, password: string): Promise<MemberRow | null> {
    const owner: MemberRow = {
      id: newId("mem"),
      partnerId: partner.id,
      email,
      passwordHash: await this.hash(password),
      role: "owner",
      createdAt: this.deps.clock.now(),
    };
    return (await this.deps.accounts.createAccount(partner, owner)) ? owner : null;
  }

  /**
   * The member the address and password sign in, or null for a wrong pair. Throws RetryLater when
   * this client must wait before trying this address again, or the hashing queue is full.
   */
  async signIn(form: { email: string; password: string }, client: string): Promise<MemberRow | null> {
    const email = normalizedEmail(form.email) ?? form.email.trim().toLowerCase().slice(0, MAX_EMAIL_LENGTH);
    await this.signInThrottle.admit(email, client);
    const member = form.password.length > 1024 ? undefined : await this.deps.accounts.findMemberByEmail(email);
    return (await this.checkPassword(email, client, form.password, member)) ? member! : null;
  }

  /**
   * Checks a password of an address that passed the throttle, and counts the outcome. An unknown
   * address is checked against the decoy, so it takes as long as a wrong password and counts as one.
   */
  private async checkPassword(email: string, client: string, password: string, member: MemberRow | undefined): Promise<boolean> {
    const checked = await this.verify(password, member ? member.passwordHash : await this.decoyHash());
    const right = member !== undefined && checked;
    if (right) await this.signInThrottle.succeeded(email, client);
    else await this.signInThrottle.failed(email, client);
    return right;
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(newToken(), this.cost);
    return this.decoy;
  }

  /**
   * Changes the member's password after checking the current one, throttled as a sign-in of the
   * member's address from this client is; the member's other sessions end (the caller's goes on).
   */
  async changePassword(member: MemberRow, current: string, next: string, keepSession: string, client: string): Promise<void> {
    await this.signInThrottle.admit(member.email, client);
    const fresh = await this.deps.accounts.findMember(member.id);
    if (!(await this.checkPassword(member.email, client, current, fresh)))
      throw new AccountProblem({ current_password: "The current password is not right." });
    const weak = passwordProblem(next, fresh!.email);
    if (weak) throw new AccountProblem({ new_password: weak });
    await this.deps.accounts.setPasswordHash(member.id, await this.hash(next));
    await this.deps.accounts.deleteSessionsOf(member.id, keepSession);
  }

  /** Invites an address to the owner's account; answers the link (shown to the owner where no mail is sent). */
  async invite(owner: MemberRow, emailText: string, role: MemberRole): Promise<{ invitation: InvitationRow; link: string }> {
    const email = normalizedEmail(emailText);
    if (!email) throw new AccountProblem({ email: "Enter an e-mail address such as name@example.com." });
    const now = this.deps.clock.now();
    const token = newToken();
    const invitation: InvitationRow = {
      tokenHash: tokenHash(token),
      partnerId: owner.partnerId,
      email,
      role,
      invitedBy: owner.email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_MS),
    };
    await this.deps.accounts.saveInvitation(invitation);
    const link = `${this.deps.baseUrl}/invitations/${token}`;
    const partner = await this.deps.accounts.findPartner(owner.partnerId);
    this.deps.mailer.send({
      to: email,
      subject: `${owner.email} invited you to ${partner?.name ?? "a partner account"}`,
      link,
      text: `Open the link to join as ${role}. It works once, for 7 days.`,
    });
    return { invitation, link };
  }

  /** The invitation a link names, if it is still open. */
  async openInvitation(token: string): Promise<InvitationRow | null> {
    const invitation = await this.deps.accounts.findInvitation(tokenHash(token));
    return invitation && invitation.expiresAt > this.deps.clock.now() ? invitation : null;
  }

  /**
   * Accepts an invitation with a password. Following a link that was mailed to the address proves
   * the address, so there a new address becomes a member with the password chosen. An address that
   * already has an account joins only by that account's password (checked and throttled as a
   * sign-in): the account moves here, as an address belongs to one partner account. Where no mail
   * is sent the inviting owner holds the link, which proves nothing: only an existing account may
   * join, and any other password answers as a wrong one, so the link tells its holder nothing.
   */
  async acceptInvitation(token: string, password: string, client: string): Promise<MemberRow | InvitationRefusal> {
    const invitation = await this.openInvitation(token);
    if (!invitation) return "expired";
    const existing = await this.deps.accounts.findMemberByEmail(invitation.email);
    if (existing || !this.deps.mailer.delivers) return this.joinWithAccount(invitation, password, client, existing);
    const weak = passwordProblem(password, invitation.email);
    if (weak) throw new AccountProblem({ password: weak });
    const member: MemberRow = {
      id: newId("mem"),
      partnerId: invitation.partnerId,
      email: invitation.email,
      passwordHash: await this.hash(password),
      role: invitation.role,
      createdAt: this.deps.clock.now(),
    };
    // Used once: of two tabs accepting at once, one gets the account.
    if (!(await this.deps.accounts.deleteInvitation(invitation.tokenHash))) return "expired";
    return (await this.deps.accounts.addMember(member)) ? member : "expired";
  }

  private async joinWithAccount(
    invitation: InvitationRow,
    password: string,
    client: string,
    existing: MemberRow | undefined,
  ): Promise<MemberRow | InvitationRefusal> {
    await this.signInThrottle.admit(invitation.email, client);
    if (!(await this.checkPassword(invitation.email, client, password, existing))) return "wrong_password";
    const member = existing!;
    if (!(await this.deps.accounts.deleteInvitation(invitation.tokenHash))) return "expired";
    if (member.partnerId === invitation.partnerId) return member;
    const moved = await this.deps.accounts.moveMember(member.partnerId, member.id, invitation.partnerId, invitation.role);
    if (moved === "done") return { ...member, partnerId: invitation.partnerId, role: invitation.role };
    // Not used after all: the member may make another owner and follow the link again.
    await this.deps.accounts.saveInvitation(invitation);
    return moved === "last_owner" ? "last_owner" : "expired";
  }
}
