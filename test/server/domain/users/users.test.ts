import { describe, expect, it } from "vitest";
import { DAY } from "../../../../server/platform/clock.js";
import { hashSessionToken, LOGIN_SESSIONS_PER_USER } from "../../../../server/domain/sessions/user-sessions.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../../../server/platform/rate-limits/policy.js";
import { startTestServer, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

const createUser = (user_identifier: string, email?: string) =>
  s.api.POST("/api/v1/users", { body: email === undefined ? { user_identifier } : { user_identifier, email } });

describe("POST /api/v1/users", () => {
  it("creates the user and returns a 24-hour login_url on the embed host", async () => {
    const { data, response } = await createUser("user_12345", "ada@example.com");
    expect(response.status).toBe(201);
    expect(data!.user_identifier).toBe("user_12345");
    expect(data!.login_url).toMatch(/^http:\/\/embed\.test\/session\/[A-Za-z0-9]{43}$/);
    expect(data!.expires_at).toBe(new Date(s.clock.now().getTime() + DAY).toISOString().replace(".000", ""));
  });

  it("finds an existing user, opens a fresh session and updates its e-mail", async () => {
    const first = await createUser("u1", "old@example.com");
    s.clock.advance(60_000);
    const second = await createUser("u1", "new@example.com");
    expect(second.response.status).toBe(201);
    expect(second.data!.login_url).not.toBe(first.data!.login_url);
    const { data } = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(data).toMatchObject({ email: "new@example.com", created_at: "2026-11-22T10:00:00Z", last_login: "2026-11-22T10:01:00Z" });
  });

  it("keeps the stored e-mail when none is given", async () => {
    await createUser("u1", "ada@example.com");
    await createUser("u1");
    const { data } = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(data!.email).toBe("ada@example.com");
  });

  it("keeps the session's locale in its canonical case, for the embedded interface (an addition)", async () => {
    const { data, response } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", locale: "de-ch" } });
    expect(response.status).toBe(201);
    const token = data!.login_url.split("/").pop()!;
    expect((await s.services.store.findSession(hashSessionToken(token)))?.locale).toBe("de-CH");
    const without = await createUser("u1");
    expect((await s.services.store.findSession(hashSessionToken(without.data!.login_url.split("/").pop()!)))?.locale).toBeNull();
  });

  it("refuses a missing user_identifier with 400 missing_required_field", async () => {
    const { error, response } = await s.api.POST("/api/v1/users", { body: { email: "ada@example.com" } as never });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: "validation_error",
      message: "user_identifier is required",
      details: { field: "user_identifier", code: "missing_required_field" },
    });
  });

  // Refused identifiers: the kit's users.identifier-bounds and users.identifier-characters. Accepted ones are stored.
  it.each(["a".repeat(255), "Az09_-"])("takes the user_identifier %j", async (userIdentifier) => {
    const { response } = await createUser(userIdentifier);
    expect(response.status).toBe(201);
  });

  it("refuses an unknown field with 400 unknown_field", async () => {
    const { error, response } = await s.api.POST("/api/v1/users", { body: { user_identifier: "u1", admin: true } as never });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ details: { field: "admin", code: "unknown_field" } });
  });

  it("refuses a user_identifier of the wrong type with 400 invalid_type", async () => {
    const { error, response } = await s.api.POST("/api/v1/users", { body: { user_identifier: 42 } as never });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ details: { field: "user_identifier", code: "invalid_type" } });
  });
});

describe("GET /api/v1/users/{user_identifier}", () => {
  it("returns the user with domain_count and total_spent computed from its domains", async () => {
    await createUser("u1", "ada@example.com");
    await s.registerDomainFor("u1", "example.com");
    await s.registerDomainFor("u1", "example.io");
    const { data, response } = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      user_identifier: "u1",
      email: "ada@example.com",
      created_at: "2026-11-22T10:00:00Z",
      last_login: "2026-11-22T10:00:00Z",
      domain_count: 2,
      total_spent: "51.99",
    });
  });

  it("answers 404 not_found for an unknown user", async () => {
    const { error, response } = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "ghost" } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "User ghost not found" });
  });

  it("does not show another partner's user of the same identifier", async () => {
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "shared", email: "b@example.com" } });
    const { response } = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "shared" } } });
    expect(response.status).toBe(404);
    await createUser("shared", "a@example.com");
    const mine = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "shared" } } });
    expect(mine.data!.email).toBe("a@example.com");
  });
});

describe("GET /api/v1/users", () => {
  async function seedUsers(count: number) {
    for (let i = 0; i < count; i++) {
      await createUser(`user_${String(i).padStart(3, "0")}`);
      s.clock.advance(1000);
    }
  }

  it("pages with limit 50 and offset 0 by default, newest first", async () => {
    await seedUsers(60);
    const { data } = await s.api.GET("/api/v1/users");
    expect(data!.limit).toBe(50);
    expect(data!.offset).toBe(0);
    expect(data!.total).toBe(60);
    expect(data!.users).toHaveLength(50);
    expect(data!.users[0]!.user_identifier).toBe("user_059");
  });

  it("returns the rest of the list at an offset", async () => {
    await seedUsers(60);
    const { data } = await s.api.GET("/api/v1/users", { params: { query: { offset: 50 } } });
    expect(data!.users.map((u) => u.user_identifier)).toEqual(
      Array.from({ length: 10 }, (_, i) => `user_${String(9 - i).padStart(3, "0")}`),
    );
  });

  it("sorts by domain_count and last_login in either order, ties by user_identifier", async () => {
    await createUser("b");
    await createUser("a");
    await createUser("c");
    await s.registerDomainFor("c", "cee.com");
    s.clock.advance(1000);
    await createUser("b");
    const byDomains = await s.api.GET("/api/v1/users", { params: { query: { sort: "domain_count", order: "desc" } } });
    expect(byDomains.data!.users.map((u) => u.user_identifier)).toEqual(["c", "a", "b"]);
    const byLogin = await s.api.GET("/api/v1/users", { params: { query: { sort: "last_login", order: "asc" } } });
    expect(byLogin.data!.users.map((u) => u.user_identifier)).toEqual(["a", "c", "b"]);
  });

  it("answers next_cursor null on a page that ends the list, and a cursor on one that does not", async () => {
    await seedUsers(3);
    const whole = await s.api.GET("/api/v1/users");
    expect(whole.data!.next_cursor).toBeNull();
    const first = await s.api.GET("/api/v1/users", { params: { query: { limit: 2 } } });
    expect(first.data!.next_cursor).toEqual(expect.any(String));
    const last = await s.api.GET("/api/v1/users", { params: { query: { limit: 2, cursor: first.data!.next_cursor! } } });
    expect(last.data).toMatchObject({ users: [{ user_identifier: "user_000" }], total: 3, limit: 2, offset: 0, next_cursor: null });
    const past = await s.api.GET("/api/v1/users", { params: { query: { offset: 3 } } });
    expect(past.data).toMatchObject({ users: [], total: 3, next_cursor: null });
  });

  it("pages by cursor through the list paged by offset, each user once, in every sort and order", async () => {
    for (const name of ["d", "b", "e", "a", "c"]) await createUser(name);
    // Ties in every sort: two users bought domains, the others share their creation and login times.
    await s.registerDomainFor("b", "bee.com");
    await s.registerDomainFor("e", "eee.com");
    s.clock.advance(1000);
    await createUser("c");
    for (const sort of ["created_at", "last_login", "domain_count"] as const)
      for (const order of ["asc", "desc"] as const) {
        const whole = await s.api.GET("/api/v1/users", { params: { query: { sort, order } } });
        const walked: string[] = [];
        let cursor: string | undefined;
        do {
          const { data, response } = await s.api.GET("/api/v1/users", { params: { query: { sort, order, limit: 2, cursor } } });
          expect(response.status).toBe(200);
          expect(data!.total).toBe(5);
          walked.push(...data!.users.map((u) => u.user_identifier));
          cursor = data!.next_cursor ?? undefined;
        } while (cursor !== undefined && walked.length < 10);
        expect(walked, `${sort} ${order}`).toEqual(whole.data!.users.map((u) => u.user_identifier));
      }
  });

  it("refuses a cursor sent with another sort or order (invalid_cursor) or with an offset other than 0 (invalid_value)", async () => {
    await seedUsers(3);
    const first = await s.api.GET("/api/v1/users", { params: { query: { sort: "last_login", order: "asc", limit: 1 } } });
    const cursor = first.data!.next_cursor!;
    for (const query of [{ sort: "created_at", order: "asc" }, { sort: "last_login" }, { order: "asc" }] as const) {
      const { error, response } = await s.api.GET("/api/v1/users", { params: { query: { ...query, cursor } } });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } });
    }
    const withOffset = await s.api.GET("/api/v1/users", { params: { query: { sort: "last_login", order: "asc", cursor, offset: 1 } } });
    expect(withOffset.response.status).toBe(400);
    expect(withOffset.error).toMatchObject({ error: "validation_error", details: { field: "offset", code: "invalid_value" } });
    const withOffsetZero = await s.api.GET("/api/v1/users", { params: { query: { sort: "last_login", order: "asc", cursor, offset: 0 } } });
    expect(withOffsetZero.data!.users.map((u) => u.user_identifier)).toEqual(["user_001", "user_002"]);
  });

  it("lists only the calling partner's users", async () => {
    await createUser("mine");
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "theirs" } });
    const { data } = await s.api.GET("/api/v1/users");
    expect(data!.users.map((u) => u.user_identifier)).toEqual(["mine"]);
    expect(data!.total).toBe(1);
  });
});

describe("PUT /api/v1/users/{user_identifier}", () => {
  it("changes the e-mail and answers with updated_at", async () => {
    await createUser("u1", "old@example.com");
    s.clock.advance(5000);
    const { data, response } = await s.api.PUT("/api/v1/users/{user_identifier}", {
      params: { path: { user_identifier: "u1" } },
      body: { email: "new@example.com" },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ user_identifier: "u1", email: "new@example.com", updated_at: "2026-11-22T10:00:05Z" });
  });

  it("removes the e-mail when given null", async () => {
    await createUser("u1", "old@example.com");
    const { data } = await s.api.PUT("/api/v1/users/{user_identifier}", {
      params: { path: { user_identifier: "u1" } },
      body: { email: null },
    });
    expect(data!.email).toBeNull();
  });

  it("answers 404 for an unknown user", async () => {
    const { response } = await s.api.PUT("/api/v1/users/{user_identifier}", {
      params: { path: { user_identifier: "ghost" } },
      body: { email: "a@example.com" },
    });
    expect(response.status).toBe(404);
  });
});

describe("DELETE /api/v1/users/{user_identifier}", () => {
  it("deletes the user with its domains, records and transfers, and answers 204 with no body", async () => {
    await createUser("u1");
    const domainId = await s.registerDomainFor("u1", "example.com");
    await s.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "A", name: "@", content: "203.0.113.10" },
    });
    const transfer = await s.api.POST("/api/v1/domains/transfer", {
      body: { domain_name: "example.org", user_identifier: "u1", auth_code: "code" },
    });
    const { response } = await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).response.status).toBe(404);
    expect((await s.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: domainId } } })).response.status).toBe(404);
    expect(
      (await s.api.GET("/api/v1/domains/transfers/{transfer_id}", { params: { path: { transfer_id: transfer.data!.transfer_id } } }))
        .response.status,
    ).toBe(404);
    expect(await s.services.store.recordsOfDomain(domainId)).toEqual([]);
    expect(s.outbox.events.at(-1)).toMatchObject({ type: "user.deleted", payload: { data: { user_identifier: "u1" } } });
  });

  it("frees the user's domain names for others", async () => {
    await createUser("u1");
    await s.registerDomainFor("u1", "adalovelace.com");
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    const { data } = await s.api.GET("/api/v1/domains/availability/{domain_name}", {
      params: { path: { domain_name: "adalovelace.com" } },
    });
    expect(data!.available).toBe(true);
  });

  it("ends the user's sessions", async () => {
    const { data } = await createUser("u1");
    const token = data!.login_url.split("/").pop()!;
    expect(await s.services.store.findSession(hashSessionToken(token))).toBeDefined();
    await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(await s.services.store.findSession(hashSessionToken(token))).toBeUndefined();
  });

  it("answers 404 for an unknown user and for another partner's user", async () => {
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "theirs" } });
    expect(
      (await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "ghost" } } })).response.status,
    ).toBe(404);
    expect(
      (await s.api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "theirs" } } })).response.status,
    ).toBe(404);
    expect(
      (await s.otherPartner.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "theirs" } } })).response.status,
    ).toBe(200);
  });
});

describe("many POST /api/v1/users for one user", () => {
  /** What the store holds, serialized: grows with every row and index entry it keeps. */
  const storedSize = (store: object) =>
    JSON.stringify(store, (_key, value: unknown) =>
      value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : value,
    ).length;

  it(`keep the store's size flat once the user has ${LOGIN_SESSIONS_PER_USER} sessions: nothing of the older ones stays behind`, async () => {
    const server = await startTestServer({ rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 100), store: "memory" });
    try {
      const login = () => server.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
      for (let i = 0; i < LOGIN_SESSIONS_PER_USER; i++) await login();
      const bounded = storedSize(server.services.store);
      for (let i = 0; i < 10 * LOGIN_SESSIONS_PER_USER; i++) expect((await login()).response.status).toBe(201);
      expect(storedSize(server.services.store)).toBe(bounded);
      expect(await server.services.store.sessionsOfUser("partner_a", "u1")).toHaveLength(LOGIN_SESSIONS_PER_USER);
    } finally {
      await server.close();
    }
  });
});
