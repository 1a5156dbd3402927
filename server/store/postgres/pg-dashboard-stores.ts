/**
 * The dashboard's stores on PostgreSQL: accounts, the request log, framing origins
 * (migrations/0004_dashboard.sql), and the demo partner's credentials (migrations/0006_demo_credentials.sql).
 */
import type { Environment } from "../../../generated/deployment.js";
import type {
  AccountStore,
  DashboardSessionRow,
  DemoCredentialsRow,
  InvitationRow,
  MemberChange,
  MemberRole,
  MemberRow,
  PartnerAccountRow,
  PendingSignUpRow,
} from "../../partners/accounts/account-store.js";
import type { FramingOriginStore } from "../../partners/framing/framing-origin-store.js";
import {
  collapseRefusals,
  refusalKey,
  refusalMinute,
  type LoggedRequest,
  type RequestHistoryStore,
  type RequestPageQuery,
  type RequestRecord,
  type RetentionPolicy,
} from "../../partners/request-history/request-history-store.js";
import {
  type DbRow,
  decodeColumns,
  decodeComputed,
  decodeDashboardInvitationsRow,
  decodeDashboardMembersRow,
  decodeDashboardSessionsRow,
  decodeDashboardSignUpsRow,
  decodeDemoCredentialsRow,
  decodePartnerAccountsRow,
} from "../../../generated/db-rows.js";
import { deleteInBatches } from "./batched-deletes.js";
import { ENVIRONMENT_NAMES, MEMBER_ROLES, oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

const UNIQUE_VIOLATION = "23505";
const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;

const member = (row: DbRow): MemberRow => {
  const r = decodeDashboardMembersRow(row);
  return {
    id: r.id,
    partnerId: r.partner_id,
    email: r.email,
    passwordHash: r.password_hash,
    role: oneOf(r.role, MEMBER_ROLES, "dashboard_members.role"),
    createdAt: r.created_at,
  };
};

const invitation = (row: DbRow): InvitationRow => {
  const r = decodeDashboardInvitationsRow(row);
  return {
    tokenHash: r.token_hash,
    partnerId: r.partner_id,
    email: r.email,
    role: oneOf(r.role, MEMBER_ROLES, "dashboard_invitations.role"),
    invitedBy: r.invited_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  };
};

const session = (row: DbRow): DashboardSessionRow => {
  const r = decodeDashboardSessionsRow(row);
  return {
    idHash: r.id_hash,
    memberId: r.member_id,
    partnerId: r.partner_id,
    csrfToken: r.csrf_token,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  };
};

const demoCredentials = (row: DbRow): DemoCredentialsRow => {
  const r = decodeDemoCredentialsRow(row);
  return { partnerId: r.partner_id, password: r.password, passwordHash: r.password_hash, keyId: r.key_id, apiKey: r.api_key };
};

const INSERT_MEMBER =
  "INSERT INTO dashboard_members (id, partner_id, email, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)";
const memberParams = (row: MemberRow) => [row.id, row.partnerId, row.email, row.passwordHash, row.role, row.createdAt];

export class PgAccountStore implements AccountStore {
  constructor(private readonly sql: Sql) {}

  async createAccount(partner: PartnerAccountRow, owner: MemberRow): Promise<boolean> {
    try {
      await this.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO partner_accounts (id, name, created_at) VALUES ($1, $2, $3)", [
          partner.id,
          partner.name,
          partner.createdAt,
        ]);
        await tx.query(INSERT_MEMBER, memberParams(owner));
      }, "read committed");
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findPartner(id: string): Promise<PartnerAccountRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM partner_accounts WHERE id = $1", [id]);
    if (!row) return undefined;
    const r = decodePartnerAccountsRow(row);
    return { id: r.id, name: r.name, createdAt: r.created_at };
  }

  async findMember(id: string): Promise<MemberRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM dashboard_members WHERE id = $1", [id]);
    return row && member(row);
  }

  async findMemberByEmail(email: string): Promise<MemberRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM dashboard_members WHERE email = $1", [email]);
    return row && member(row);
  }

  async membersOf(partnerId: string): Promise<MemberRow[]> {
    return (await this.sql.query("SELECT * FROM dashboard_members WHERE partner_id = $1 ORDER BY created_at, id", [partnerId])).map(member);
  }

  async addMember(row: MemberRow): Promise<boolean> {
    const inserted = await this.sql.query(`${INSERT_MEMBER} ON CONFLICT (email) DO NOTHING RETURNING 1`, memberParams(row));
    return inserted.length > 0;
  }

  async setPasswordHash(memberId: string, passwordHash: string): Promise<void> {
    await this.sql.query("UPDATE dashboard_members SET password_hash = $2 WHERE id = $1", [memberId, passwordHash]);
  }

  /** Changes of members take the account's row first: two owners demoting each other cannot both pass the count. */
  private changeMember(partnerId: string, memberId: string, change: (tx: Sql, current: MemberRow) => Promise<MemberChange>) {
    return this.sql.transaction(async (tx) => {
      await tx.query("SELECT 1 FROM partner_accounts WHERE id = $1 FOR UPDATE", [partnerId]);
      const [row] = await tx.query("SELECT * FROM dashboard_members WHERE id = $1 AND partner_id = $2", [memberId, partnerId]);
      return row ? change(tx, member(row)) : ("not_found" as const);
    }, "read committed");
  }

  private async soleOwner(tx: Sql, current: MemberRow): Promise<boolean> {
    if (current.role !== "owner") return false;
    const [row] = await tx.query("SELECT count(*)::integer AS owners FROM dashboard_members WHERE partner_id = $1 AND role = 'owner'", [
      current.partnerId,
    ]);
    return decodeComputed(row!, { owners: "number" }).owners <= 1;
  }

  setRole(partnerId: string, memberId: string, role: MemberRole): Promise<MemberChange> {
    return this.changeMember(partnerId, memberId, async (tx, current) => {
      if (role !== "owner" && (await this.soleOwner(tx, current))) return "last_owner";
      await tx.query("UPDATE dashboard_members SET role = $2 WHERE id = $1", [memberId, role]);
      return "done";
    });
  }

  removeMember(partnerId: string, memberId: string): Promise<MemberChange> {
    return this.changeMember(partnerId, memberId, async (tx, current) => {
      if (await this.soleOwner(tx, current)) return "last_owner";
      // Its sessions go with it (ON DELETE CASCADE).
      await tx.query("DELETE FROM dashboard_members WHERE id = $1", [memberId]);
      return "done";
    });
  }

  moveMember(fromPartnerId: string, memberId: string, toPartnerId: string, role: MemberRole): Promise<MemberChange> {
    return this.changeMember(fromPartnerId, memberId, async (tx, current) => {
      if (await this.soleOwner(tx, current)) return "last_owner";
      const moved = await tx.query(
        "UPDATE dashboard_members SET partner_id = $2, role = $3 WHERE id = $1 AND EXISTS (SELECT 1 FROM partner_accounts WHERE id = $2) RETURNING 1",
        [memberId, toPartnerId, role],
      );
      if (moved.length === 0) return "not_found";
      await tx.query("DELETE FROM dashboard_sessions WHERE member_id = $1", [memberId]);
      return "done";
    });
  }

  async saveInvitation(row: InvitationRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO dashboard_invitations (token_hash, partner_id, email, role, invited_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.tokenHash, row.partnerId, row.email, row.role, row.invitedBy, row.createdAt, row.expiresAt],
    );
  }

  async findInvitation(tokenHash: string): Promise<InvitationRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM dashboard_invitations WHERE token_hash = $1", [tokenHash]);
    return row && invitation(row);
  }

  async invitationsOf(partnerId: string): Promise<InvitationRow[]> {
    return (
      await this.sql.query("SELECT * FROM dashboard_invitations WHERE partner_id = $1 ORDER BY created_at, token_hash", [partnerId])
    ).map(invitation);
  }

  async deleteInvitation(tokenHash: string): Promise<boolean> {
    return (await this.sql.query("DELETE FROM dashboard_invitations WHERE token_hash = $1 RETURNING 1", [tokenHash])).length > 0;
  }

  async savePendingSignUp(row: PendingSignUpRow): Promise<void> {
    await this.sql.query(
      "INSERT INTO dashboard_sign_ups (token_hash, email, partner_name, password_hash, expires_at) VALUES ($1, $2, $3, $4, $5)",
      [row.tokenHash, row.email, row.partnerName, row.passwordHash, row.expiresAt],
    );
  }

  async takePendingSignUp(tokenHash: string): Promise<PendingSignUpRow | undefined> {
    const [row] = await this.sql.query("DELETE FROM dashboard_sign_ups WHERE token_hash = $1 RETURNING *", [tokenHash]);
    if (!row) return undefined;
    const r = decodeDashboardSignUpsRow(row);
    return { tokenHash: r.token_hash, email: r.email, partnerName: r.partner_name, passwordHash: r.password_hash, expiresAt: r.expires_at };
  }

  async saveSession(row: DashboardSessionRow): Promise<void> {
    await this.sql.query(
      "INSERT INTO dashboard_sessions (id_hash, member_id, partner_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [row.idHash, row.memberId, row.partnerId, row.csrfToken, row.createdAt, row.expiresAt],
    );
  }

  async findSession(idHash: string): Promise<DashboardSessionRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM dashboard_sessions WHERE id_hash = $1", [idHash]);
    return row && session(row);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sql.query("DELETE FROM dashboard_sessions WHERE id_hash = $1", [idHash]);
  }

  async deleteSessionsOf(memberId: string, except?: string): Promise<void> {
    await this.sql.query("DELETE FROM dashboard_sessions WHERE member_id = $1 AND id_hash IS DISTINCT FROM $2", [memberId, except ?? null]);
  }

  async deleteExpired(now: Date): Promise<number> {
    const [row] = await this.sql.query(
      `WITH s AS (DELETE FROM dashboard_sessions WHERE expires_at <= $1 RETURNING 1),
            i AS (DELETE FROM dashboard_invitations WHERE expires_at <= $1 RETURNING 1),
            u AS (DELETE FROM dashboard_sign_ups WHERE expires_at <= $1 RETURNING 1)
       SELECT ((SELECT count(*) FROM s) + (SELECT count(*) FROM i) + (SELECT count(*) FROM u))::integer AS deleted`,
      [now],
    );
    return decodeComputed(row!, { deleted: "number" }).deleted;
  }

  async findDemoCredentials(partnerId: string): Promise<DemoCredentialsRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM demo_credentials WHERE partner_id = $1", [partnerId]);
    return row && demoCredentials(row);
  }

  async claimDemoCredentials(row: DemoCredentialsRow): Promise<DemoCredentialsRow> {
    await this.sql.query(
      `INSERT INTO demo_credentials (partner_id, password, password_hash, key_id, api_key) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (partner_id) DO NOTHING`,
      [row.partnerId, row.password, row.passwordHash, row.keyId, row.apiKey],
    );
    return (await this.findDemoCredentials(row.partnerId))!;
  }

  async replaceDemoKey(partnerId: string, replacedKeyId: string, key: { keyId: string; apiKey: string }): Promise<DemoCredentialsRow> {
    // Compared and set in one statement: of starts replacing the same key at once, one wins and the others read its key.
    await this.sql.query("UPDATE demo_credentials SET key_id = $3, api_key = $4 WHERE partner_id = $1 AND key_id = $2", [
      partnerId,
      replacedKeyId,
      key.keyId,
      key.apiKey,
    ]);
    const row = await this.findDemoCredentials(partnerId);
    if (!row) throw new Error(`no demo credentials of ${partnerId} to replace the key of`);
    return row;
  }
}

const LOG_COLUMN_NAMES = [
  "partner_id",
  "environment",
  "at",
  "method",
  "route",
  "status",
  "request_id",
  "duration_ms",
  "key_name",
  "count",
  "key_id",
  "scope_decision",
  "scope_detail",
] as const;
const LOG_COLUMNS = LOG_COLUMN_NAMES.join(", ");
const SCOPE_DECISIONS = { allowed: true, insufficient_scope: true, key_restricted: true } as const;

const logged = (row: DbRow): LoggedRequest => {
  const r = decodeColumns(row, "request_log", LOG_COLUMN_NAMES);
  return {
    partnerId: r.partner_id,
    environment: oneOf(r.environment, ENVIRONMENT_NAMES, "request_log.environment"),
    at: r.at,
    method: r.method,
    route: r.route,
    status: r.status,
    requestId: r.request_id,
    durationMs: r.duration_ms,
    keyName: r.key_name,
    count: r.count,
    keyId: r.key_id,
    scopeDecision: oneOf(r.scope_decision, SCOPE_DECISIONS, "request_log.scope_decision"),
    scopeDetail: r.scope_detail,
  };
};

export class PgRequestHistoryStore implements RequestHistoryStore {
  constructor(private readonly sql: Sql) {}

  /**
   * One statement for a batch, columns as arrays: an instance writes its buffered records at once.
   * Refusals of one key, method, route and minute become one row, counted into the row another
   * batch or instance already wrote for them.
   */
  async append(records: readonly RequestRecord[]): Promise<void> {
    if (records.length === 0) return;
    const entries = collapseRefusals(records);
    const column = <T>(pick: (entry: LoggedRequest) => T) => entries.map(pick);
    await this.sql.query(
      `INSERT INTO request_log (${LOG_COLUMNS}, refused_minute)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::smallint[], $7::text[],
                            $8::double precision[], $9::text[], $10::integer[], $11::text[], $12::text[], $13::text[],
                            $14::timestamptz[])
       ON CONFLICT (partner_id, environment, key_name, method, (coalesce(route, '')), refused_minute) WHERE refused_minute IS NOT NULL
       DO UPDATE SET count = request_log.count + excluded.count`,
      [
        column((r) => r.partnerId),
        column((r) => r.environment),
        column((r) => r.at),
        column((r) => r.method),
        column((r) => r.route),
        column((r) => r.status),
        column((r) => r.requestId),
        column((r) => r.durationMs),
        column((r) => r.keyName),
        column((r) => r.count),
        column((r) => r.keyId ?? null),
        column((r) => r.scopeDecision ?? "allowed"),
        column((r) => r.scopeDetail ?? null),
        column((r) => (refusalKey(r) === null ? null : refusalMinute(r.at))),
      ],
    );
  }

  /** Each filter reads an index of its own (migrations/0008_bounded_histories.sql), the newest first. */
  async page({ partnerId, environment, filter, before, limit }: RequestPageQuery): Promise<LoggedRequest[]> {
    const conditions = ["partner_id = $1", "environment = $2"];
    const params: unknown[] = [partnerId, environment];
    const add = (condition: string, ...values: unknown[]) => {
      let text = condition;
      for (const value of values) {
        params.push(value);
        text = text.replace("?", `$${params.length}`);
      }
      conditions.push(text);
    };
    if (before !== null) add("(at, request_id) < (?::timestamptz, ?::text)", before.at, before.requestId);
    if (filter.statusClass !== undefined) add("(status / 100) = ?", filter.statusClass);
    if (filter.route !== undefined) add("route = ?", filter.route);
    if (filter.requestId !== undefined) add("request_id = ?", filter.requestId);
    params.push(limit);
    const rows = await this.sql.query(
      `SELECT ${LOG_COLUMNS} FROM request_log WHERE ${conditions.join(" AND ")}
       ORDER BY at DESC, request_id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(logged);
  }

  /**
   * Per partner and environment, in statements of at most RETENTION_BATCH_ROWS rows: what is older
   * than the age kept, then what is beyond the newest kept. Each statement reads a partner's index,
   * never the table; the space freed is made reusable at once (PGlite has no autovacuum).
   */
  async prune(now: Date, { maxAgeMs, keepLatest }: RetentionPolicy): Promise<number> {
    // One row per partner and environment, each found by one index probe (a skip scan), with the oldest entry it keeps by count.
    const owners = await this.sql.query(
      `WITH RECURSIVE owners AS (
         (SELECT partner_id, environment FROM request_log ORDER BY partner_id, environment LIMIT 1)
         UNION ALL
         SELECT next.partner_id, next.environment FROM owners, LATERAL (
           SELECT r.partner_id, r.environment FROM request_log AS r
           WHERE (r.partner_id, r.environment) > (owners.partner_id, owners.environment)
           ORDER BY r.partner_id, r.environment LIMIT 1) AS next
       )
       SELECT owners.partner_id, owners.environment, kept.at, kept.request_id FROM owners
       LEFT JOIN LATERAL (
         SELECT at, request_id FROM request_log AS r
         WHERE r.partner_id = owners.partner_id AND r.environment = owners.environment
         ORDER BY at DESC, request_id DESC OFFSET $1 LIMIT 1) AS kept ON true`,
      [Math.max(0, keepLatest - 1)],
    );
    const cutoff = new Date(now.getTime() - maxAgeMs);
    let forgotten = 0;
    for (const row of owners) {
      // at and request_id come from a LEFT JOIN: null when the owner has no more entries than it keeps.
      const owner = decodeComputed(row, { partner_id: "string", environment: "string", at: "Date | null", request_id: "string | null" });
      const of = [owner.partner_id, owner.environment];
      forgotten += await deleteInBatches(this.sql, "request_log", "partner_id = $1 AND environment = $2 AND at < $3", [...of, cutoff]);
      if (owner.at !== null)
        forgotten += await deleteInBatches(
          this.sql,
          "request_log",
          "partner_id = $1 AND environment = $2 AND (at, request_id) < ($3::timestamptz, $4::text)",
          [...of, owner.at, owner.request_id],
        );
    }
    if (forgotten > 0) await this.sql.exec("VACUUM (SKIP_LOCKED) request_log");
    return forgotten;
  }
}

export class PgFramingOriginStore implements FramingOriginStore {
  constructor(private readonly sql: Sql) {}

  async originsOf(partnerId: string, environment: Environment): Promise<string[]> {
    const [row] = await this.sql.query("SELECT origins FROM framing_origins WHERE partner_id = $1 AND environment = $2", [
      partnerId,
      environment,
    ]);
    return row ? decodeColumns(row, "framing_origins", ["origins"]).origins : [];
  }

  async setOrigins(partnerId: string, environment: Environment, origins: readonly string[]): Promise<void> {
    if (origins.length === 0) {
      await this.sql.query("DELETE FROM framing_origins WHERE partner_id = $1 AND environment = $2", [partnerId, environment]);
      return;
    }
    await this.sql.query(
      `INSERT INTO framing_origins (partner_id, environment, origins) VALUES ($1, $2, $3)
       ON CONFLICT (partner_id, environment) DO UPDATE SET origins = EXCLUDED.origins`,
      [partnerId, environment, origins],
    );
  }
}
