/** The service's data in PostgreSQL: the Store contract over one connection or transaction. */
import type { DnsRecordRow, RecordFilter, RecordListPosition } from "../../domain/dns/record-store.js";
import type { DomainPageQuery, DomainRow } from "../../domain/domains/domain-store.js";
import type { DomainDetailParts } from "../../domain/domains/domain-detail-store.js";
import type { EmbedSessionRow, EndedEmbedSessionRow, SessionRow } from "../../domain/sessions/session-store.js";
import type { Store } from "../store.js";
import type { TransferRow } from "../../domain/transfers/transfer-store.js";
import type { UserPageEntry, UserPageQuery, UserRow } from "../../domain/users/user-store.js";
import {
  type DbRow,
  decodeColumns,
  decodeComputed,
  decodeDomainsRow,
  decodeEmbedSessionsRow,
  decodeJsonColumns,
  decodeEndedEmbedSessionsRow,
  decodeLoginSessionsRow,
  decodeTransfersRow,
  decodeUsersRow,
} from "../../../generated/db-rows.js";
import { DOMAIN_STATUSES, jsonArray, jsonObject, oneOf, RECORD_TYPES, TRANSFER_STATUSES } from "./column-values.js";
import { NAMESERVER_CHANGE_COLUMNS, nameserverChange, PgDelegationStore } from "./pg-delegation-store.js";
import { CONTROL_COLUMNS, PgTransferOutStore, transferControls } from "./pg-transfer-out-store.js";
import { PgConnectionStore } from "./pg-connection-store.js";
import type { Sql } from "./sql-client.js";

const user = (row: DbRow): UserRow => {
  const r = decodeUsersRow(row);
  return {
    partnerId: r.partner_id,
    userIdentifier: r.user_identifier,
    email: r.email,
    createdAt: r.created_at,
    lastLogin: r.last_login,
    updatedAt: r.updated_at,
    totalSpent: r.total_spent,
  };
};

const domain = (row: DbRow): DomainRow => {
  const r = decodeDomainsRow(row);
  return {
    id: r.id,
    partnerId: r.partner_id,
    userIdentifier: r.user_identifier,
    name: r.name,
    status: oneOf(r.status, DOMAIN_STATUSES, "domains.status"),
    purchasedAt: r.purchased_at,
    expiresAt: r.expires_at,
    autoRenew: r.auto_renew,
    whoisPrivacy: r.whois_privacy,
    nameservers: r.nameservers,
    registrationPrice: r.registration_price,
    renewalPrice: r.renewal_price,
    currency: r.currency,
    updatedAt: r.updated_at,
  };
};

/** Every column but name_key, which only orders and filters. */
const RECORD_COLUMN_NAMES = [
  "id",
  "domain_id",
  "type",
  "name",
  "content",
  "ttl",
  "priority",
  "comment",
  "locked",
  "created_at",
  "updated_at",
] as const;
const RECORD_COLUMNS = RECORD_COLUMN_NAMES.join(", ");
const record = (row: DbRow): DnsRecordRow => {
  const r = decodeColumns(row, "dns_records", RECORD_COLUMN_NAMES);
  return {
    id: r.id,
    domainId: r.domain_id,
    type: oneOf(r.type, RECORD_TYPES, "dns_records.type"),
    name: r.name,
    content: r.content,
    ttl: r.ttl,
    priority: r.priority,
    comment: r.comment,
    locked: r.locked,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
};

/** transfers.history: every status reached, as JSON `[{ status, at }]` with `at` in ISO 8601. */
const transferHistory = (history: unknown): TransferRow["history"] =>
  jsonArray(history, "transfers.history").map((item) => {
    const step = decodeComputed(jsonObject(item, "transfers.history[]"), { status: "string", at: "string" }, "transfers.history[]");
    return { status: oneOf(step.status, TRANSFER_STATUSES, "transfers.history[].status"), at: new Date(step.at) };
  });

const transfer = (row: DbRow): TransferRow => {
  const r = decodeTransfersRow(row);
  return {
    id: r.id,
    partnerId: r.partner_id,
    userIdentifier: r.user_identifier,
    domainName: r.domain_name,
    status: oneOf(r.status, TRANSFER_STATUSES, "transfers.status"),
    authCode: r.auth_code,
    extendRegistration: r.extend_registration,
    cost: r.cost,
    currency: r.currency,
    startedAt: r.started_at,
    estimatedCompletion: r.estimated_completion,
    completedAt: r.completed_at,
    domainId: r.domain_id,
    history: transferHistory(r.history),
  };
};

/** Each sort and direction of the users list; every one has its index (migrations/0001_initial.sql). */
const USER_ORDER: Record<`${UserPageQuery["sort"]}:${UserPageQuery["order"]}`, string> = {
  "created_at:asc": "created_at, user_identifier",
  "created_at:desc": "created_at DESC, user_identifier",
  "last_login:asc": "last_login, user_identifier",
  "last_login:desc": "last_login DESC, user_identifier",
  "domain_count:asc": "domain_count, user_identifier",
  "domain_count:desc": "domain_count DESC, user_identifier",
};

const ACTIVE = "status IN ('pending', 'in_progress')";

/** Keeps what is left of the browser sessions of the users `where` selects: their cookies get the session-ended page. */
const KEEP_ENDED_EMBED_SESSIONS = (where: string) => `
  INSERT INTO ended_embed_sessions (id_hash, partner_id, expires_at)
  SELECT e.id_hash, e.partner_id, coalesce(l.expires_at, 'epoch')
  FROM embed_sessions e LEFT JOIN login_sessions l ON l.token_hash = e.login_token_hash
  WHERE ${where}
  ON CONFLICT (id_hash) DO NOTHING`;

export class PgStore implements Store {
  /** Domains this unit of work has locked (domain-locked units: findDomain took the row FOR UPDATE). */
  private readonly lockedDomains = new Set<string>();
  readonly delegations: PgDelegationStore;
  readonly transferOut: PgTransferOutStore;
  readonly connections: PgConnectionStore;

  constructor(
    private readonly sql: Sql,
    /** In a domain-locked unit of work (persistence.ts): a domain read is locked until the unit ends. */
    private readonly options: { lockDomainsRead?: boolean } = {},
  ) {
    this.delegations = new PgDelegationStore(sql);
    this.transferOut = new PgTransferOutStore(sql);
    this.connections = new PgConnectionStore(sql);
  }

  async findUser(partnerId: string, userIdentifier: string): Promise<UserRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM users WHERE partner_id = $1 AND user_identifier = $2", [partnerId, userIdentifier]);
    return row && user(row);
  }

  async saveUser(row: UserRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO users (partner_id, user_identifier, email, created_at, last_login, updated_at, total_spent)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (partner_id, user_identifier) DO UPDATE SET
         email = EXCLUDED.email, created_at = EXCLUDED.created_at, last_login = EXCLUDED.last_login,
         updated_at = EXCLUDED.updated_at, total_spent = EXCLUDED.total_spent`,
      [row.partnerId, row.userIdentifier, row.email, row.createdAt, row.lastLogin, row.updatedAt, row.totalSpent],
    );
  }

  async listUsers(
    partnerId: string,
    { limit, offset, sort, order, after = null }: UserPageQuery,
  ): Promise<{ users: UserPageEntry[]; total: number }> {
    const orderBy = USER_ORDER[`${sort}:${order}`];
    // After a position, two index ranges merged in list order: the users of its sort value after its identifier, then
    // those of the values beyond. As one predicate (beyond, or equal with a later identifier) the index range is only
    // "from the value on", and the scan walked every tie of it: most users share a domain count. The equal value is a
    // closed range, not `=`, which let the planner drop the column from the branch's order and sort the branch.
    // (Plans: test/server/store/postgres-plans.test.ts.) `sort` is the name of its column.
    const page =
      after === null
        ? { rows: `SELECT * FROM users WHERE partner_id = $1 ORDER BY ${orderBy} LIMIT $2 OFFSET $3`, params: [] }
        : {
            rows: `SELECT * FROM (
                (SELECT * FROM users WHERE partner_id = $1 AND ${sort} >= $4 AND ${sort} <= $4 AND user_identifier > $5
                 ORDER BY ${orderBy} LIMIT $6)
                UNION ALL
                (SELECT * FROM users WHERE partner_id = $1 AND ${sort} ${order === "asc" ? ">" : "<"} $4 ORDER BY ${orderBy} LIMIT $6)
              ) AS after_position ORDER BY ${orderBy} LIMIT $2 OFFSET $3`,
            params: [sort === "domain_count" ? after.sortValue : new Date(after.sortValue), after.userIdentifier, offset + limit],
          };
    // The page and the partner's kept count (partner_user_counts, not a count of its users) in one statement: the
    // count joined to the page, so an empty page still answers it (one row of nulls), and the page's rows come in the
    // page's order (a nested loop over the one row of the count).
    const rows = await this.sql.query(
      `SELECT kept.total, page.*
       FROM (SELECT coalesce(sum(count), 0)::integer AS total FROM partner_user_counts WHERE partner_id = $1) AS kept
       LEFT JOIN LATERAL (${page.rows}) AS page ON true`,
      [partnerId, limit, offset, ...page.params],
    );
    return {
      users: rows
        .filter((row) => row.user_identifier !== null)
        .map((row) => ({ user: user(row), domainCount: decodeColumns(row, "users", ["domain_count"]).domain_count })),
      total: decodeComputed(rows[0]!, { total: "number" }).total,
    };
  }

  async deleteUser(partnerId: string, userIdentifier: string): Promise<void> {
    await this.sql.query(KEEP_ENDED_EMBED_SESSIONS("e.partner_id = $1 AND e.user_identifier = $2"), [partnerId, userIdentifier]);
    // Domains, records, transfers and sessions go with the user (ON DELETE CASCADE).
    await this.sql.query("DELETE FROM users WHERE partner_id = $1 AND user_identifier = $2", [partnerId, userIdentifier]);
  }

  async deletePartnerData(partnerId: string): Promise<void> {
    await this.sql.query(KEEP_ENDED_EMBED_SESSIONS("e.partner_id = $1"), [partnerId]);
    await this.sql.query("DELETE FROM users WHERE partner_id = $1", [partnerId]);
  }

  async partnersWithData(): Promise<string[]> {
    return (await this.sql.query("SELECT DISTINCT partner_id FROM users")).map(
      (row) => decodeColumns(row, "users", ["partner_id"]).partner_id,
    );
  }

  async partnersWithSessions(): Promise<string[]> {
    const rows = await this.sql.query(
      "SELECT DISTINCT partner_id FROM login_sessions UNION SELECT DISTINCT partner_id FROM ended_embed_sessions",
    );
    return rows.map((row) => decodeColumns(row, "login_sessions", ["partner_id"]).partner_id);
  }

  async findDomain(id: string): Promise<DomainRow | undefined> {
    const [row] = await this.sql.query(`SELECT * FROM domains WHERE id = $1${this.options.lockDomainsRead ? " FOR UPDATE" : ""}`, [id]);
    if (row && this.options.lockDomainsRead) this.lockedDomains.add(id);
    return row && domain(row);
  }

  async domainDetailParts(domainId: string, recordLimit: number): Promise<DomainDetailParts | undefined> {
    // One statement: the domain's dependents as JSON beside its columns (one row, however many records).
    const [row] = await this.sql.query(
      `SELECT d.*,
         (SELECT coalesce(json_agg(r ORDER BY r.name_key, r.type, r.created_at, r.id), '[]')
          FROM (SELECT ${RECORD_COLUMNS}, name_key FROM dns_records WHERE domain_id = d.id
                ORDER BY name_key, type, created_at, id LIMIT $2) r) AS detail_records,
         (SELECT row_to_json(n) FROM nameserver_changes n WHERE n.domain_id = d.id AND n.state = 'pending') AS detail_nameserver_change,
         (SELECT row_to_json(t) FROM (SELECT ${CONTROL_COLUMNS.join(", ")} FROM transfer_controls WHERE domain_id = d.id) t)
           AS detail_transfer_controls
       FROM domains d WHERE d.id = $1`,
      [domainId, recordLimit],
    );
    if (!row) return undefined;
    const parts = decodeComputed(row, {
      detail_records: "unknown",
      detail_nameserver_change: "unknown",
      detail_transfer_controls: "unknown",
    });
    const change = parts.detail_nameserver_change;
    const controls = parts.detail_transfer_controls;
    return {
      domain: domain(row),
      records: jsonArray(parts.detail_records, "detail_records").map((item) =>
        record(decodeJsonColumns(jsonObject(item, "detail_records[]"), "dns_records", RECORD_COLUMN_NAMES)),
      ),
      pendingNameserverChange:
        change === null
          ? undefined
          : nameserverChange(
              decodeJsonColumns(jsonObject(change, "detail_nameserver_change"), "nameserver_changes", NAMESERVER_CHANGE_COLUMNS),
            ),
      transferControls:
        controls === null
          ? undefined
          : transferControls(decodeJsonColumns(jsonObject(controls, "detail_transfer_controls"), "transfer_controls", CONTROL_COLUMNS)),
    };
  }

  async findDomainByName(name: string): Promise<DomainRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM domains WHERE name = $1", [name]);
    return row && domain(row);
  }

  async domainsOfUser(partnerId: string, userIdentifier: string): Promise<DomainRow[]> {
    const rows = await this.sql.query(
      `SELECT * FROM domains WHERE partner_id = $1 AND user_identifier = $2 ORDER BY purchased_at DESC, name COLLATE "C"`,
      [partnerId, userIdentifier],
    );
    return rows.map(domain);
  }

  async domainPage(partnerId: string, userIdentifier: string, { status, after, limit }: DomainPageQuery) {
    const selected = `partner_id = $1 AND user_identifier = $2 AND ($3::text IS NULL OR status = $3)`;
    // The page and the count in one statement: the count joined to the page, so an empty page still answers it
    // (one row of nulls), and the page's rows come in the page's order (a nested loop over the one row of the count).
    const rows = await this.sql.query(
      `SELECT counted.total, page.*
       FROM (SELECT count(*)::int AS total FROM domains WHERE ${selected}) AS counted
       LEFT JOIN LATERAL (
         SELECT * FROM domains WHERE ${selected}
           AND ($4::timestamptz IS NULL OR purchased_at < $4 OR (purchased_at = $4 AND name COLLATE "C" > $5))
         ORDER BY purchased_at DESC, name COLLATE "C" LIMIT $6
       ) AS page ON true`,
      [partnerId, userIdentifier, status, after?.purchasedAt ?? null, after?.name ?? null, limit],
    );
    return {
      domains: rows.filter((row) => row.id !== null).map(domain),
      total: decodeComputed(rows[0]!, { total: "number" }).total,
    };
  }

  async countDomains(partnerId: string, userIdentifier: string): Promise<number> {
    const [row] = await this.sql.query("SELECT domain_count FROM users WHERE partner_id = $1 AND user_identifier = $2", [
      partnerId,
      userIdentifier,
    ]);
    return row ? decodeColumns(row, "users", ["domain_count"]).domain_count : 0;
  }

  async activeDomainsEndingBy(partnerId: string, until: Date): Promise<DomainRow[]> {
    const rows = await this.sql.query(
      "SELECT * FROM domains WHERE partner_id = $1 AND status = 'active' AND expires_at <= $2 ORDER BY expires_at, id",
      [partnerId, until],
    );
    return rows.map(domain);
  }

  async deleteDomain(id: string): Promise<void> {
    // Its records and every row kept per domain go with it (ON DELETE CASCADE); the owner's domain_count follows (count_domains).
    await this.sql.query("DELETE FROM domains WHERE id = $1", [id]);
  }

  async saveDomain(row: DomainRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO domains (id, partner_id, user_identifier, name, status, purchased_at, expires_at, auto_renew, whois_privacy,
         nameservers, registration_price, renewal_price, currency, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET
         name = EXCLUDED.name, status = EXCLUDED.status, purchased_at = EXCLUDED.purchased_at, expires_at = EXCLUDED.expires_at,
         auto_renew = EXCLUDED.auto_renew, whois_privacy = EXCLUDED.whois_privacy, nameservers = EXCLUDED.nameservers,
         registration_price = EXCLUDED.registration_price, renewal_price = EXCLUDED.renewal_price,
         currency = EXCLUDED.currency, updated_at = EXCLUDED.updated_at`,
      [
        row.id,
        row.partnerId,
        row.userIdentifier,
        row.name,
        row.status,
        row.purchasedAt,
        row.expiresAt,
        row.autoRenew,
        row.whoisPrivacy,
        row.nameservers,
        row.registrationPrice,
        row.renewalPrice,
        row.currency,
        row.updatedAt,
      ],
    );
  }

  async findRecord(id: string): Promise<DnsRecordRow | undefined> {
    const [row] = await this.sql.query(`SELECT ${RECORD_COLUMNS} FROM dns_records WHERE id = $1`, [id]);
    return row && record(row);
  }

  async recordsOfDomain(domainId: string): Promise<DnsRecordRow[]> {
    const rows = await this.sql.query(
      `SELECT ${RECORD_COLUMNS} FROM dns_records WHERE domain_id = $1 ORDER BY name_key, type, created_at, id`,
      [domainId],
    );
    return rows.map(record);
  }

  async recordPage(domainId: string, after: RecordListPosition | null, limit: number, filter: RecordFilter = {}): Promise<DnsRecordRow[]> {
    // A name filter is the index's second column: the page reads one name's range of it.
    const filtered = `AND ($2::text IS NULL OR name_key = lower($2)) AND ($3::text IS NULL OR type = $3)`;
    const selects = [domainId, filter.name ?? null, filter.type ?? null];
    const rows =
      after === null
        ? await this.sql.query(
            `SELECT ${RECORD_COLUMNS} FROM dns_records WHERE domain_id = $1 ${filtered} ORDER BY name_key, type, created_at, id LIMIT $4`,
            [...selects, limit],
          )
        : await this.sql.query(
            `SELECT ${RECORD_COLUMNS} FROM dns_records
             WHERE domain_id = $1 ${filtered} AND (name_key, type, created_at, id) > (lower($4), $5, $6, $7)
             ORDER BY name_key, type, created_at, id LIMIT $8`,
            [...selects, after.name, after.type, after.createdAt, after.id, limit],
          );
    return rows.map(record);
  }

  async recordsAtName(domainId: string, name: string): Promise<DnsRecordRow[]> {
    const rows = await this.sql.query(`SELECT ${RECORD_COLUMNS} FROM dns_records WHERE domain_id = $1 AND name_key = lower($2)`, [
      domainId,
      name,
    ]);
    return rows.map(record);
  }

  async countRecords(domainId: string, filter: RecordFilter = {}): Promise<number> {
    const [row] = await this.sql.query(
      `SELECT count(*)::integer AS count FROM dns_records
       WHERE domain_id = $1 AND ($2::text IS NULL OR name_key = lower($2)) AND ($3::text IS NULL OR type = $3)`,
      [domainId, filter.name ?? null, filter.type ?? null],
    );
    return decodeComputed(row!, { count: "number" }).count;
  }

  async addRecords(domainId: string, records: readonly DnsRecordRow[], maxRecords: number): Promise<boolean> {
    // The unit of work holds the domain's lock already: each statement's snapshot is taken after
    // it, so one statement counts what every writer before committed and inserts within the cap.
    if (this.lockedDomains.has(domainId) && records.length > 0)
      return (await insertRecords(this.sql, records, { domainId, maxRecords })) > 0;
    return this.sql.transaction(async (sql) => {
      // The domain's row is the lock: writers of one zone count and insert one after another.
      await sql.query("SELECT 1 FROM domains WHERE id = $1 FOR UPDATE", [domainId]);
      const [row] = await sql.query("SELECT count(*)::integer AS count FROM dns_records WHERE domain_id = $1", [domainId]);
      if (decodeComputed(row!, { count: "number" }).count + records.length > maxRecords) return false;
      await insertRecords(sql, records);
      return true;
      // On its own, READ COMMITTED: the count after the lock sees what the writer before committed.
      // Inside a unit of work it runs in that (serializable) transaction.
    }, "read committed");
  }

  async saveRecord(row: DnsRecordRow): Promise<void> {
    await insertRecords(this.sql, [row]);
  }

  async deleteRecord(id: string): Promise<void> {
    await this.sql.query("DELETE FROM dns_records WHERE id = $1", [id]);
  }

  async findTransfer(id: string): Promise<TransferRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM transfers WHERE id = $1", [id]);
    return row && transfer(row);
  }

  async activeTransfersOfPartner(partnerId: string): Promise<TransferRow[]> {
    return (await this.sql.query(`SELECT * FROM transfers WHERE partner_id = $1 AND ${ACTIVE} ORDER BY started_at, id`, [partnerId])).map(
      transfer,
    );
  }

  async activeTransferOf(domainName: string): Promise<TransferRow | undefined> {
    const [row] = await this.sql.query(`SELECT * FROM transfers WHERE domain_name = $1 AND ${ACTIVE}`, [domainName]);
    return row && transfer(row);
  }

  async saveTransfer(row: TransferRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO transfers (id, partner_id, user_identifier, domain_name, status, auth_code, extend_registration, cost, currency,
         started_at, estimated_completion, completed_at, domain_id, history)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET
         status = EXCLUDED.status, completed_at = EXCLUDED.completed_at, domain_id = EXCLUDED.domain_id, history = EXCLUDED.history,
         estimated_completion = EXCLUDED.estimated_completion`,
      [
        row.id,
        row.partnerId,
        row.userIdentifier,
        row.domainName,
        row.status,
        row.authCode,
        row.extendRegistration,
        row.cost,
        row.currency,
        row.startedAt,
        row.estimatedCompletion,
        row.completedAt,
        row.domainId,
        JSON.stringify(row.history.map((step) => ({ status: step.status, at: step.at.toISOString() }))),
      ],
    );
  }

  async saveSession(session: SessionRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO login_sessions (token_hash, partner_id, user_identifier, expires_at, locale) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (token_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [session.tokenHash, session.partnerId, session.userIdentifier, session.expiresAt, session.locale],
    );
  }

  async findSession(tokenHash: string): Promise<SessionRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM login_sessions WHERE token_hash = $1", [tokenHash]);
    if (!row) return undefined;
    const r = decodeLoginSessionsRow(row);
    return {
      tokenHash: r.token_hash,
      partnerId: r.partner_id,
      userIdentifier: r.user_identifier,
      expiresAt: r.expires_at,
      locale: r.locale,
    };
  }

  async sessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]> {
    const rows = await this.sql.query("SELECT token_hash FROM login_sessions WHERE partner_id = $1 AND user_identifier = $2 ORDER BY seq", [
      partnerId,
      userIdentifier,
    ]);
    return rows.map((row) => decodeColumns(row, "login_sessions", ["token_hash"]).token_hash);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    // Its browser sessions go with it (ON DELETE CASCADE).
    await this.sql.query("DELETE FROM login_sessions WHERE token_hash = $1", [tokenHash]);
  }

  async deleteEndedSessions(partnerId: string, now: Date): Promise<number> {
    const deleted = await this.sql.query("DELETE FROM login_sessions WHERE partner_id = $1 AND expires_at <= $2 RETURNING 1", [
      partnerId,
      now,
    ]);
    await this.sql.query("DELETE FROM ended_embed_sessions WHERE partner_id = $1 AND expires_at <= $2", [partnerId, now]);
    return deleted.length;
  }

  async saveEmbedSession(session: EmbedSessionRow): Promise<void> {
    await this.sql.query(
      `INSERT INTO embed_sessions (id_hash, login_token_hash, partner_id, user_identifier, csrf_token) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id_hash) DO UPDATE SET csrf_token = EXCLUDED.csrf_token`,
      [session.idHash, session.loginTokenHash, session.partnerId, session.userIdentifier, session.csrfToken],
    );
  }

  async findEmbedSession(idHash: string): Promise<EmbedSessionRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM embed_sessions WHERE id_hash = $1", [idHash]);
    if (!row) return undefined;
    const r = decodeEmbedSessionsRow(row);
    return {
      idHash: r.id_hash,
      loginTokenHash: r.login_token_hash,
      partnerId: r.partner_id,
      userIdentifier: r.user_identifier,
      csrfToken: r.csrf_token,
    };
  }

  async findEndedEmbedSession(idHash: string): Promise<EndedEmbedSessionRow | undefined> {
    const [row] = await this.sql.query("SELECT * FROM ended_embed_sessions WHERE id_hash = $1", [idHash]);
    if (!row) return undefined;
    const r = decodeEndedEmbedSessionsRow(row);
    return { idHash: r.id_hash, partnerId: r.partner_id, expiresAt: r.expires_at };
  }

  async embedSessionsOfUser(partnerId: string, userIdentifier: string): Promise<string[]> {
    const rows = await this.sql.query("SELECT id_hash FROM embed_sessions WHERE partner_id = $1 AND user_identifier = $2 ORDER BY seq", [
      partnerId,
      userIdentifier,
    ]);
    return rows.map((row) => decodeColumns(row, "embed_sessions", ["id_hash"]).id_hash);
  }

  async deleteEmbedSession(idHash: string): Promise<void> {
    await this.sql.query("DELETE FROM embed_sessions WHERE id_hash = $1", [idHash]);
  }
}

/**
 * Inserts records, or replaces them whole (a record keeps its id, domain and creation time); with a
 * `cap`, only if the domain's records stay within it, all or none. How many rows it wrote.
 */
async function insertRecords(sql: Sql, records: readonly DnsRecordRow[], cap?: { domainId: string; maxRecords: number }): Promise<number> {
  if (records.length === 0) return 0;
  const within = cap ? "WHERE (SELECT count(*) FROM dns_records WHERE domain_id = $12) + cardinality($1::text[]) <= $13" : "";
  // One statement for a bulk request or a template: arrays unnested into rows.
  const insert = `INSERT INTO dns_records (id, domain_id, type, name, content, ttl, priority, created_at, updated_at, comment, locked)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::integer[], $8::timestamptz[], $9::timestamptz[],
       $10::text[], $11::boolean[]) ${within}
     ON CONFLICT (id) DO UPDATE SET
       type = EXCLUDED.type, name = EXCLUDED.name, content = EXCLUDED.content, ttl = EXCLUDED.ttl,
       priority = EXCLUDED.priority, updated_at = EXCLUDED.updated_at, comment = EXCLUDED.comment, locked = EXCLUDED.locked`;
  const [row] = await sql.query(cap ? `WITH written AS (${insert} RETURNING 1) SELECT count(*)::integer AS count FROM written` : insert, [
    records.map((r) => r.id),
    records.map((r) => r.domainId),
    records.map((r) => r.type),
    records.map((r) => r.name),
    records.map((r) => r.content),
    records.map((r) => r.ttl),
    records.map((r) => r.priority),
    records.map((r) => r.createdAt),
    records.map((r) => r.updatedAt),
    records.map((r) => r.comment),
    records.map((r) => r.locked),
    ...(cap ? [cap.domainId, cap.maxRecords] : []),
  ]);
  return cap ? decodeComputed(row!, { count: "number" }).count : records.length;
}
