/**
 * Dashboard accounts: sign-up confirmed by a link sent to the address, sign-in with throttling,
 * password change, invitations. Messages never tell whether an address has an account: sign-up
 * answers the same for a new address and a taken one (the link goes to the address either way), and
 * sign-in failures read alike and take alike long, known address or not.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import type { WindowStore } from "../rate-limits/window-store.js";
import type { AccountStore, InvitationRow, MemberRole, MemberRow, PartnerAccountRow } from "./account-store.js";
import type { Mailer } from "./mailer.js";
import { DEFAULT_COST, hashPassword, passwordProblem, verifyPassword } from "./passwords.js";

/** How long a sign-up link and an invitation stay valid. */
export const SIGN_UP_LINK_MS = 24 * 3_600_000;
export const INVITATION_MS = 7 * 86_400_000;
/** Sign-in attempts allowed per address and per client address in one window, known address or not. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_ATTEMPTS_PER_EMAIL = 10;
export const SIGN_IN_ATTEMPTS_PER_CLIENT = 100;
const MAX_EMAIL_LENGTH = 254;
export const MAX_PARTNER_NAME_LENGTH = 100;

export interface AccountDeps {
  accounts: AccountStore;
  /** Counters of sign-in attempts, shared by every instance (the rate limiter's store). */
  attempts: WindowStore;
  clock: Clock;
  mailer: Mailer;
  /** The dashboard's own base URL, for links in messages. */
  baseUrl: string;
  /** log2 of scrypt's N (server/accounts/passwords.ts); tests lower it. */
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

export class AccountProblem extends Error {
  constructor(readonly fields: FieldProblems) {
    super(Object.values(fields).join(" "));
  }
}

export class Accounts {
  /** A hash of a password nobody has, verified for unknown addresses so a miss takes as long as a wrong password. */
  private decoy: Promise<string> | null = null;

  constructor(private readonly deps: AccountDeps) {}

  private get cost(): number {
    return this.deps.passwordCost ?? DEFAULT_COST;
  }

  private hash(password: string): Promise<string> {
    return hashPassword(password, this.cost);
  }

  /**
   * Starts a sign-up: checks the form, then sends the address a link. A taken address gets a
   * message saying so instead, and the caller sees the same answer either way.
   */
  async requestSignUp(form: { email: string; password: string; partnerName: string }): Promise<{ email: string }> {
    const email = normalizedEmail(form.email);
    const problems: FieldProblems = {};
    if (!email) problems.email = "Enter an e-mail address such as name@example.com.";
    const nameProblem = partnerNameProblem(form.partnerName);
    if (nameProblem) problems.partner_name = nameProblem;
    const weak = passwordProblem(form.password, form.email);
    if (weak) problems.password = weak;
    if (Object.keys(problems).length > 0) throw new AccountProblem(problems);
    const now = this.deps.clock.now();
    if (await this.deps.accounts.findMemberByEmail(email!)) {
      this.deps.mailer.send({
        to: email!,
        subject: "You already have a partner dashboard account",
        link: `${this.deps.baseUrl}/sign-in`,
        text: "Someone tried to sign up with this address, which already has an account. Sign in instead; if it was not you, nothing changed.",
      });
      // The hash is not needed, but its time is: a taken address answers as late as a new one.
      await this.hash(form.password);
      return { email: email! };
    }
    const token = newToken();
    await this.deps.accounts.savePendingSignUp({
      tokenHash: tokenHash(token),
      email: email!,
      partnerName: form.partnerName.trim(),
      passwordHash: await this.hash(form.password),
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
   * The member the address and password sign in, null for a wrong pair, or how long to wait when
   * the address or the client made too many attempts. Every attempt counts, right or wrong.
   */
  async signIn(
    form: { email: string; password: string },
    client: string,
  ): Promise<{ member: MemberRow } | { member: null; retryAfterSeconds?: number }> {
    const email = normalizedEmail(form.email) ?? form.email.trim().toLowerCase().slice(0, MAX_EMAIL_LENGTH);
    const now = this.deps.clock.now().getTime();
    const windowStart = now - (now % SIGN_IN_WINDOW_MS);
    const { refused } = await this.deps.attempts.consume([
      { key: `dashboard-sign-in:email:${tokenHash(email)}`, windowStart, limit: SIGN_IN_ATTEMPTS_PER_EMAIL },
      { key: `dashboard-sign-in:client:${client}`, windowStart, limit: SIGN_IN_ATTEMPTS_PER_CLIENT },
    ]);
    if (refused.length > 0) return { member: null, retryAfterSeconds: Math.ceil((windowStart + SIGN_IN_WINDOW_MS - now) / 1000) };
    if (form.password.length > 1024) return { member: null };
    const member = await this.deps.accounts.findMemberByEmail(email);
    if (!member) {
      await verifyPassword(form.password, await this.decoyHash());
      return { member: null };
    }
    return (await verifyPassword(form.password, member.passwordHash)) ? { member } : { member: null };
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.hash(newToken());
    return this.decoy;
  }

  /** Changes the member's password after checking the current one; the member's other sessions end (the caller's goes on). */
  async changePassword(member: MemberRow, current: string, next: string, keepSession: string): Promise<void> {
    const fresh = await this.deps.accounts.findMember(member.id);
    if (!fresh || !(await verifyPassword(current, fresh.passwordHash)))
      throw new AccountProblem({ current_password: "The current password is not right." });
    const weak = passwordProblem(next, fresh.email);
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

  /** Joins the account an invitation names, with a new password; the link is used up. */
  async acceptInvitation(token: string, password: string): Promise<MemberRow | "expired" | "address_taken"> {
    const invitation = await this.openInvitation(token);
    if (!invitation) return "expired";
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
    return (await this.deps.accounts.addMember(member)) ? member : "address_taken";
  }
}
