/** The in-memory adapter of account-store (server/partners/accounts/account-store.ts): the default of `npm start` and of most tests. */
import type {
  MemberRole,
  PartnerAccountRow,
  MemberRow,
  InvitationRow,
  PendingSignUpRow,
  DashboardSessionRow,
  DemoCredentialsRow,
  MemberChange,
  AccountStore,
} from "../../partners/accounts/account-store.js";

const copy = <T extends object>(row: T | undefined): T | undefined => row && { ...row };

export class MemoryAccountStore implements AccountStore {
  private readonly partners = new Map<string, PartnerAccountRow>();
  private readonly members = new Map<string, MemberRow>();
  private readonly memberIdByEmail = new Map<string, string>();
  private readonly invitations = new Map<string, InvitationRow>();
  private readonly signUps = new Map<string, PendingSignUpRow>();
  private readonly sessions = new Map<string, DashboardSessionRow>();
  private readonly demoCredentials = new Map<string, DemoCredentialsRow>();

  async createAccount(partner: PartnerAccountRow, owner: MemberRow): Promise<boolean> {
    if (this.memberIdByEmail.has(owner.email) || this.partners.has(partner.id)) return false;
    this.partners.set(partner.id, { ...partner });
    this.insertMember(owner);
    return true;
  }

  async findPartner(id: string): Promise<PartnerAccountRow | undefined> {
    return copy(this.partners.get(id));
  }

  async findMember(id: string): Promise<MemberRow | undefined> {
    return copy(this.members.get(id));
  }

  async findMemberByEmail(email: string): Promise<MemberRow | undefined> {
    const id = this.memberIdByEmail.get(email);
    return id === undefined ? undefined : copy(this.members.get(id));
  }

  async membersOf(partnerId: string): Promise<MemberRow[]> {
    return [...this.members.values()].filter((member) => member.partnerId === partnerId).map((member) => ({ ...member }));
  }

  async addMember(member: MemberRow): Promise<boolean> {
    if (this.memberIdByEmail.has(member.email)) return false;
    this.insertMember(member);
    return true;
  }

  private insertMember(member: MemberRow): void {
    this.members.set(member.id, { ...member });
    this.memberIdByEmail.set(member.email, member.id);
  }

  async setPasswordHash(memberId: string, passwordHash: string): Promise<void> {
    const member = this.members.get(memberId);
    if (member) member.passwordHash = passwordHash;
  }

  async setRole(partnerId: string, memberId: string, role: MemberRole): Promise<MemberChange> {
    const member = this.members.get(memberId);
    if (!member || member.partnerId !== partnerId) return "not_found";
    if (member.role === "owner" && role !== "owner" && this.ownerCount(partnerId) === 1) return "last_owner";
    member.role = role;
    return "done";
  }

  async removeMember(partnerId: string, memberId: string): Promise<MemberChange> {
    const member = this.members.get(memberId);
    if (!member || member.partnerId !== partnerId) return "not_found";
    if (member.role === "owner" && this.ownerCount(partnerId) === 1) return "last_owner";
    this.members.delete(memberId);
    this.memberIdByEmail.delete(member.email);
    await this.deleteSessionsOf(memberId);
    return "done";
  }

  async moveMember(fromPartnerId: string, memberId: string, toPartnerId: string, role: MemberRole): Promise<MemberChange> {
    const member = this.members.get(memberId);
    if (!member || member.partnerId !== fromPartnerId || !this.partners.has(toPartnerId)) return "not_found";
    if (member.role === "owner" && this.ownerCount(fromPartnerId) === 1) return "last_owner";
    member.partnerId = toPartnerId;
    member.role = role;
    await this.deleteSessionsOf(memberId);
    return "done";
  }

  private ownerCount(partnerId: string): number {
    let owners = 0;
    for (const member of this.members.values()) if (member.partnerId === partnerId && member.role === "owner") owners++;
    return owners;
  }

  async saveInvitation(invitation: InvitationRow): Promise<void> {
    this.invitations.set(invitation.tokenHash, { ...invitation });
  }

  async findInvitation(tokenHash: string): Promise<InvitationRow | undefined> {
    return copy(this.invitations.get(tokenHash));
  }

  async invitationsOf(partnerId: string): Promise<InvitationRow[]> {
    return [...this.invitations.values()].filter((row) => row.partnerId === partnerId).map((row) => ({ ...row }));
  }

  async deleteInvitation(tokenHash: string): Promise<boolean> {
    return this.invitations.delete(tokenHash);
  }

  async savePendingSignUp(signUp: PendingSignUpRow): Promise<void> {
    this.signUps.set(signUp.tokenHash, { ...signUp });
  }

  async takePendingSignUp(tokenHash: string): Promise<PendingSignUpRow | undefined> {
    const row = this.signUps.get(tokenHash);
    this.signUps.delete(tokenHash);
    return row;
  }

  async saveSession(session: DashboardSessionRow): Promise<void> {
    this.sessions.set(session.idHash, { ...session });
  }

  async findSession(idHash: string): Promise<DashboardSessionRow | undefined> {
    return copy(this.sessions.get(idHash));
  }

  async deleteSession(idHash: string): Promise<void> {
    this.sessions.delete(idHash);
  }

  async deleteSessionsOf(memberId: string, except?: string): Promise<void> {
    for (const [idHash, session] of this.sessions) if (session.memberId === memberId && idHash !== except) this.sessions.delete(idHash);
  }

  async deleteExpired(now: Date): Promise<number> {
    let deleted = 0;
    for (const rows of [this.sessions, this.invitations, this.signUps] as Map<string, { expiresAt: Date }>[])
      for (const [key, row] of rows)
        if (row.expiresAt <= now) {
          rows.delete(key);
          deleted++;
        }
    return deleted;
  }

  async findDemoCredentials(partnerId: string): Promise<DemoCredentialsRow | undefined> {
    return copy(this.demoCredentials.get(partnerId));
  }

  async claimDemoCredentials(row: DemoCredentialsRow): Promise<DemoCredentialsRow> {
    if (!this.demoCredentials.has(row.partnerId)) this.demoCredentials.set(row.partnerId, { ...row });
    return { ...this.demoCredentials.get(row.partnerId)! };
  }

  async replaceDemoKey(partnerId: string, replacedKeyId: string, key: { keyId: string; apiKey: string }): Promise<DemoCredentialsRow> {
    const row = this.demoCredentials.get(partnerId);
    if (!row) throw new Error(`no demo credentials of ${partnerId} to replace the key of`);
    if (row.keyId === replacedKeyId) Object.assign(row, key);
    return { ...row };
  }
}
