/** The store contract, and what only a database shows, on each PostgreSQL the tests have (test-databases.ts). */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../../scripts/lib/deadlines.js";
import { StoreUnavailableError } from "../../../server/platform/store-unavailable.js";
import { knownMigrations } from "../../../server/store/postgres/migrations.js";
import { migrate, openPostgresPersistence, openSql, PostgresPersistence, schemaState } from "../../../server/store/postgres/index.js";
import { postgresJsSql } from "../../../server/store/postgres/postgres-js-sql.js";
import { domainRow, describeStoreContract, transferRow, uniqueId, userRow } from "./store-contract.js";
import { TEST_DATABASES } from "./test-databases.js";

for (const database of TEST_DATABASES) {
  describeStoreContract(database.name, async () => {
    const opened = await database.open();
    return { persistence: opened.persistence, close: opened.drop };
  });

  describe(`the database's own rules on ${database.name}`, () => {
    let persistence: PostgresPersistence;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ persistence, drop } = await database.open());
    });
    afterAll(() => drop());

    /** The error a conflicting transaction ends with: what PostgreSQL reports as serialization_failure. */
    const conflict = () => Object.assign(new Error("could not serialize access due to concurrent update"), { code: "40001" });

    it("runs a unit of work again however many turns it waits for, within its time", async () => {
      let runs = 0;
      const answer = await persistence.transaction(async () => {
        if (++runs <= 30) throw conflict();
        return "done";
      });
      expect({ answer, runs }).toEqual({ answer: "done", runs: 31 });
    });

    it("answers a unit of work that keeps conflicting as unavailable once its time is spent", async () => {
      const impatient = new PostgresPersistence(persistence.sql, 200);
      let runs = 0;
      const failure = await impatient
        .transaction(async () => {
          runs++;
          throw conflict();
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as StoreUnavailableError).retryAfterSeconds).toBeGreaterThan(0);
      expect(runs).toBeGreaterThan(1);
    });

    it("refuses a second domain of a name", async () => {
      const [one, other] = [userRow(uniqueId("ptn"), "one"), userRow(uniqueId("ptn"), "other")];
      await persistence.store.saveUser(one);
      await persistence.store.saveUser(other);
      const domain = domainRow(one);
      await persistence.store.saveDomain(domain);
      await expect(persistence.store.saveDomain(domainRow(other, { name: domain.name }))).rejects.toMatchObject({ code: "23505" });
    });

    it("refuses a second active transfer of a name, and takes one once the first completed", async () => {
      const user = userRow(uniqueId("ptn"), "u");
      await persistence.store.saveUser(user);
      const first = transferRow(user);
      await persistence.store.saveTransfer(first);
      await expect(
        persistence.store.saveTransfer(transferRow(user, { domainName: first.domainName, status: "in_progress" })),
      ).rejects.toMatchObject({
        code: "23505",
      });
      await persistence.store.saveTransfer({ ...first, status: "failed" });
      await persistence.store.saveTransfer(transferRow(user, { domainName: first.domainName }));
      expect(await persistence.store.activeTransferOf(first.domainName)).toBeDefined();
    });

    it("runs a unit of work again when a concurrent insert took its unique key, and gives up after a bounded number of attempts", async () => {
      const user = userRow(uniqueId("ptn"), "u");
      await persistence.store.saveUser(user);
      const taken = domainRow(user);
      await persistence.store.saveDomain(taken);
      let attempts = 0;
      await expect(
        persistence.transaction(async ({ store }) => {
          attempts++;
          await store.saveDomain(domainRow(user, { name: taken.name }));
        }),
      ).rejects.toMatchObject({ code: "23505" });
      expect(attempts).toBeGreaterThan(1);
      expect(attempts).toBeLessThan(20);
    });

    it("rolls back every write of a unit of work whose statement failed", async () => {
      const user = userRow(uniqueId("ptn"), "u");
      await persistence.store.saveUser(user);
      const taken = domainRow(user);
      await persistence.store.saveDomain(taken);
      const fresh = domainRow(user);
      await expect(
        persistence.transaction(async ({ store }) => {
          await store.saveDomain(fresh);
          await store.saveDomain(domainRow(user, { name: taken.name }));
        }),
      ).rejects.toThrow();
      expect(await persistence.store.findDomain(fresh.id)).toBeUndefined();
      expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(1);
    });

    it.runIf(database.concurrentConnections)(
      "runs again the one of two concurrent units of work that read what the other wrote (write skew), so both rules hold",
      async () => {
        // Each unit checks the user has no domain, then adds one: run at once, serializable
        // isolation fails one of them, and its second run sees the other's domain.
        const user = userRow(uniqueId("ptn"), "u");
        await persistence.store.saveUser(user);
        let attempts = 0;
        let bothRead: () => void;
        const barrier = new Promise<void>((resolve) => (bothRead = resolve));
        let readers = 0;
        const addFirstDomain = () =>
          persistence.transaction(async ({ store }) => {
            attempts++;
            const count = (await store.domainsOfUser(user.partnerId, user.userIdentifier)).length;
            if (++readers === 2) bothRead();
            await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 500))]);
            if (count > 0) return false;
            await store.saveDomain(domainRow(user));
            return true;
          });
        const outcomes = await Promise.all([addFirstDomain(), addFirstDomain()]);
        expect(outcomes.sort()).toEqual([false, true]);
        expect(attempts).toBe(3);
        expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(1);
      },
    );
  });
}

describe("the schema", () => {
  it("is migrated once: a second run applies nothing, and the state lists every migration applied", async () => {
    const sql = await openSql({ inMemory: true });
    try {
      expect(await schemaState(sql)).toEqual({ applied: [], pending: knownMigrations(), unknown: [] });
      expect(await migrate(sql, "sandbox")).toEqual(knownMigrations());
      expect(await migrate(sql, "sandbox")).toEqual([]);
      expect(await schemaState(sql)).toEqual({ applied: knownMigrations(), pending: [], unknown: [] });
    } finally {
      await sql.close();
    }
  });

  it.runIf(process.env.PARTNER_API_TEST_DATABASE_URL)("is refused by a server when behind or ahead, with the command to run", async () => {
    const admin = postgresJsSql({ connectionString: process.env.PARTNER_API_TEST_DATABASE_URL!, max: 1 });
    const name = `partner_api_schema_${uniqueId("x").replace(/\W/g, "")}`.toLowerCase();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.PARTNER_API_TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    try {
      await expect(openPostgresPersistence({ databaseUrl: url.toString() }, { environment: "sandbox" })).rejects.toThrow(
        /behind.*npm run db:migrate/,
      );
      const sql = postgresJsSql({ connectionString: url.toString(), max: 2 });
      // Two instances migrating at once: the advisory lock lets one apply, the other finds nothing to do.
      const applied = await Promise.all([migrate(sql, "sandbox"), migrate(sql, "sandbox")]);
      expect(applied.flat()).toEqual(knownMigrations());
      await sql.query("INSERT INTO schema_migrations (name) VALUES ('9999_from_a_newer_build')");
      await sql.close();
      await expect(openPostgresPersistence({ databaseUrl: url.toString() }, { environment: "sandbox" })).rejects.toThrow(
        /ahead.*9999_from_a_newer_build/,
      );
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.close();
    }
  });
});

describe("a database out of reach", () => {
  it("is reported as unavailable (503 with Retry-After), not as an error of the server", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const sql = postgresJsSql({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`, max: 1, connectionTimeoutMillis: 500 });
    try {
      const failure = await sql.query("SELECT 1").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as StoreUnavailableError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await sql.close();
    }
  });

  it.runIf(process.env.PARTNER_API_TEST_DATABASE_URL)(
    "is reported as unavailable within the wait for a connection when the pool is exhausted",
    async () => {
      const sql = postgresJsSql({ connectionString: process.env.PARTNER_API_TEST_DATABASE_URL!, max: 1, connectionTimeoutMillis: 200 });
      try {
        let release: () => void;
        const held = sql.transaction(() => new Promise<void>((resolve) => (release = resolve)), "read committed");
        await new Promise((resolve) => setTimeout(resolve, 50));
        const started = performance.now();
        await expect(sql.query("SELECT 1")).rejects.toBeInstanceOf(StoreUnavailableError);
        // Bounded: refused once the wait for a connection ran out, not queued without end.
        expect(performance.now() - started).toBeLessThan(scaled(5_000));
        release!();
        await held;
      } finally {
        await sql.close();
      }
    },
  );
});
