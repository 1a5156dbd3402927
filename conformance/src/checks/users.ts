/**
 * Users and their sessions: find-or-create, the identifier's bounds and characters, the fields'
 * errors, the list's limits, read-your-write, the cascade of a delete, and the 24-hour session.
 */
import { expect } from "expect";
import { defineChecks } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { setUp } from "../fixtures.js";
import { expectAnswer, expectCoded, expectStatus } from "./expectations.js";
import { createUserEstate, type ListedUser, listedUser, secondsBetween, uniqueUser } from "./users-support.js";

const DAY_SECONDS = 24 * 60 * 60;

export default defineChecks([
  {
    id: "users.find-or-create",
    title: "the same user_identifier twice: 201 both times, one user, the e-mail of the latest call, a fresh login_url each time",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "find_or_create");
      const first = await api.call("createUserSession", { body: { user_identifier: user, email: "first@example.com" } });
      expectAnswer(first, 201, { user_identifier: user });
      const second = await api.call("createUserSession", { body: { user_identifier: user, email: "second@example.com" } });
      expectAnswer(second, 201, { user_identifier: user }, "the same user_identifier again finds the user: never a conflict");
      expect(second.body.login_url).not.toBe(first.body.login_url);
      const read = await api.call("getUser", { path: { user_identifier: user } });
      expectAnswer(read, 200, { user_identifier: user, email: "second@example.com", domain_count: 0 }, "the user of both calls");
      expect(Date.parse(read.body.last_login)).toBeGreaterThanOrEqual(Date.parse(read.body.created_at));
      const third = await api.call("createUserSession", { body: { user_identifier: user } });
      expectAnswer(third, 201, { user_identifier: user });
      const kept = await api.call("getUser", { path: { user_identifier: user } });
      expectAnswer(
        kept,
        200,
        { email: "second@example.com", created_at: read.body.created_at },
        "a call without email keeps the stored one",
      );
      if (api.has("listUsers")) {
        const listed = [];
        for (let offset = 0; ; offset += 100) {
          const page = await api.call("listUsers", { query: { limit: 100, offset } });
          expectAnswer(page, 200);
          listed.push(...page.body.users.filter((entry: { user_identifier: string }) => entry.user_identifier === user));
          if (page.body.users.length === 0 || offset + page.body.users.length >= page.body.total) break;
        }
        expect({ listedTimes: listed.length }).toEqual({ listedTimes: 1 });
      }
    },
  },
  {
    id: "users.create-reads-back",
    title: "a created user reads back at once: its identifier, e-mail, no domains, nothing spent; its domain counts",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "reads_back");
      expectAnswer(await api.call("createUserSession", { body: { user_identifier: user, email: "Ada@Example.com" } }), 201);
      const read = await api.call("getUser", { path: { user_identifier: user } });
      expectAnswer(read, 200, { user_identifier: user, email: "Ada@Example.com", domain_count: 0 });
      expect(Number(read.body.total_spent)).toBe(0);
      if (api.has("createSandboxDomain")) {
        await setUp(api, "createSandboxDomain", { body: { user_identifier: user, domain_name: `${context.unique("reads-back")}.com` } });
        const after = await api.call("getUser", { path: { user_identifier: user } });
        expectAnswer(after, 200, { domain_count: 1 }, "a user with one domain");
        const domains = await api.call("listUserDomains", { path: { user_identifier: user } });
        expectAnswer(domains, 200);
        expect(domains.body.domains).toHaveLength(1);
      }
    },
  },
  {
    id: "users.identifier-bounds",
    title: "user_identifier: 255 characters accepted and readable, 256 and empty refused with 422 validation_error (too_long, too_short)",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const stem = uniqueUser(context, "b");
      const at = stem.padEnd(255, "x");
      expectAnswer(await api.call("createUserSession", { body: { user_identifier: at } }), 201, { user_identifier: at }, "255 characters");
      expectAnswer(await api.call("getUser", { path: { user_identifier: at } }), 200, { user_identifier: at });
      const over = stem.padEnd(256, "y");
      const refused = await api.call("createUserSession", { body: { user_identifier: over } });
      expectCoded(refused, 422, "validation_error", "user_identifier", "too_long", "256 characters");
      expectCoded(
        await api.call("getUser", { path: { user_identifier: over.slice(0, 255) } }),
        404,
        "not_found",
        undefined,
        undefined,
        "nothing made of it",
      );
      const empty = await api.call("createUserSession", { body: { user_identifier: "" } });
      expectCoded(empty, 422, "validation_error", "user_identifier", "too_short", "an empty identifier");
    },
  },
  {
    id: "users.identifier-characters",
    title: "user_identifier takes letters, digits, underscore and hyphen only: others refused with 422 validation_error invalid_format",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const allowed = `${uniqueUser(context, "Ok")}-Z_9`;
      expectAnswer(await api.call("createUserSession", { body: { user_identifier: allowed } }), 201, { user_identifier: allowed });
      for (const bad of ["with space", "dot.ted", "at@sign", "slash/ed", "ümlaut", "emoji😀"]) {
        const result = await api.call("createUserSession", { body: { user_identifier: `${uniqueUser(context, "c")}${bad}` } });
        expectCoded(result, 422, "validation_error", "user_identifier", "invalid_format", JSON.stringify(bad));
      }
    },
  },
  {
    id: "users.missing-identifier",
    title: "a missing user_identifier is 400 validation_error with field user_identifier, code missing_required_field",
    // A mock answers invalid requests in its own shape: the error codes are the implementation's.
    needs: ["state"],
    async run({ api }) {
      const result = await api.call("createUserSession", { body: { email: "a@example.com" } });
      expectCoded(result, 400, "validation_error", "user_identifier", "missing_required_field");
    },
  },
  {
    id: "users.invalid-email",
    title: "an invalid e-mail is 422 validation_error with field email, code invalid_format, and creates no user; valid ones are taken",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "bad_mail");
      for (const email of ["first.last+tag@sub.example.co.uk", "o'hara@example.com", "x@example.museum"])
        expectAnswer(
          await api.call("createUserSession", { body: { user_identifier: uniqueUser(context, "good_mail"), email } }),
          201,
          {},
          JSON.stringify(email),
        );
      for (const email of ["not-an-email", "a@", "@example.com", "a b@example.com"]) {
        const result = await api.call("createUserSession", { body: { user_identifier: user, email } });
        expectCoded(result, 422, "validation_error", "email", "invalid_format", JSON.stringify(email));
      }
      expectCoded(
        await api.call("getUser", { path: { user_identifier: user } }),
        404,
        "not_found",
        undefined,
        undefined,
        "refused, so not created",
      );
    },
  },
  {
    id: "users.list-limits",
    title: "list users: limit defaults to 50, takes 1 and 100, refuses 0 and 101 with 400 validation_error on field limit",
    needs: ["state"],
    operations: ["listUsers"],
    async run({ api }) {
      const byDefault = await api.call("listUsers", {});
      expectAnswer(byDefault, 200, { limit: 50, offset: 0 });
      expect(byDefault.body.users.length).toBe(Math.min(50, byDefault.body.total));
      for (const limit of [1, 100]) {
        const result = await api.call("listUsers", { query: { limit } });
        expectAnswer(result, 200, { limit }, `limit ${limit}`);
        expect(result.body.users.length).toBe(Math.min(limit, result.body.total));
      }
      for (const limit of [0, 101])
        expectCoded(await api.call("listUsers", { query: { limit } }), 400, "validation_error", "limit", undefined, `limit ${limit}`);
    },
  },
  {
    id: "users.list-shows-users",
    title: "a created user is listed with its e-mail and domain count; a deleted one is not",
    needs: ["state"],
    operations: ["listUsers", "deleteUser"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "listed");
      await setUp(api, "createUserSession", { body: { user_identifier: user, email: "listed@example.com" } });
      expect(await listedUser(context, user)).toMatchObject({ user_identifier: user, email: "listed@example.com", domain_count: 0 });
      // Every user once, and as many as total says (the partner's own users only).
      const seen = new Set<string>();
      let total = -1;
      for (let offset = 0; offset < 100_000; ) {
        const page = await api.call("listUsers", { query: { limit: 100, offset, sort: "created_at", order: "asc" } });
        expectAnswer(page, 200);
        total = page.body.total;
        for (const entry of page.body.users as ListedUser[]) {
          if (seen.has(entry.user_identifier)) throw new Error(`listUsers shows ${entry.user_identifier} twice (at offset ${offset})`);
          seen.add(entry.user_identifier);
        }
        offset += page.body.users.length;
        if (page.body.users.length === 0 || offset >= total) break;
      }
      expect({ listed: seen.size }).toEqual({ listed: total });
      expectStatus(await api.call("deleteUser", { path: { user_identifier: user } }), 204);
      expect(await listedUser(context, user)).toBeNull();
    },
  },
  {
    id: "users.list-sorted",
    title:
      "list users is ordered by sort (created_at, last_login, domain_count) in order (desc by default), ties by user_identifier ascending; other values, a bad offset or limit and unknown parameters are 400 naming the parameter",
    needs: ["state"],
    operations: ["listUsers"],
    async run(context) {
      const { api } = context;
      for (const [n, stem] of ["sorted_a", "sorted_b"].entries()) {
        const user = uniqueUser(context, stem);
        await setUp(api, "createUserSession", { body: { user_identifier: user } });
        for (let i = 0; i < n && api.has("createSandboxDomain"); i++)
          await setUp(api, "createSandboxDomain", { body: { user_identifier: user, domain_name: `${context.unique("sorted")}.com` } });
      }
      const orders: Array<[string | undefined, string | undefined]> = [
        [undefined, undefined],
        ["created_at", "asc"],
        ["last_login", "desc"],
        ["domain_count", "desc"],
        ["domain_count", "asc"],
      ];
      for (const [sort, order] of orders) {
        const query = { limit: 100, ...(sort ? { sort } : {}), ...(order ? { order } : {}) };
        const page = await api.call("listUsers", { query });
        expectAnswer(page, 200);
        const key = sort ?? "created_at";
        const direction = (order ?? "desc") === "desc" ? -1 : 1;
        const value = (u: ListedUser) => (key === "domain_count" ? u.domain_count : Date.parse(u[key as "created_at" | "last_login"]));
        const users: ListedUser[] = page.body.users;
        for (let i = 1; i < users.length; i++) {
          const [a, b] = [users[i - 1]!, users[i]!];
          // Timestamps are shown to the second: users of one second may be in any order the hidden fractions give.
          const tieInOrder = key !== "domain_count" || a.user_identifier < b.user_identifier;
          const inOrder = Math.sign(value(b) - value(a)) === direction || (value(a) === value(b) && tieInOrder);
          if (!inOrder)
            throw new Error(
              `listUsers ${JSON.stringify(query)}: ${a.user_identifier} (${a[key as keyof ListedUser]}) before ${b.user_identifier} (${b[key as keyof ListedUser]}) breaks the order (ties by user_identifier ascending)`,
            );
        }
      }
      const refused: Array<Record<string, string | number>> = [
        { sort: "email" },
        { order: "up" },
        { offset: -1 },
        { limit: "ten" },
        { page: 2 },
      ];
      for (const query of refused) {
        const result = await api.call("listUsers", { query });
        // The parameter refused is named, with a code saying why.
        expectCoded(result, 400, "validation_error", Object.keys(query)[0]!, undefined, JSON.stringify(query));
        expect(typeof result.body.details.code).toBe("string");
      }
    },
  },
  {
    id: "users.locale",
    title:
      "a session's locale is a well-formed BCP 47 tag (201) or refused with 422 validation_error invalid_format on field locale (too_short for one letter), creating no user",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "locale");
      for (const locale of ["de", "de-CH", "en-GB"])
        expectAnswer(await api.call("createUserSession", { body: { user_identifier: user, locale } }), 201, {}, `locale ${locale}`);
      const refusedUser = uniqueUser(context, "bad_locale");
      const refused: Array<[string, string]> = [
        ...["en_GB", "de-", "deutsch-schweiz-", "de-DE-1996-1996", "english", "en-a-b"].map(
          (locale) => [locale, "invalid_format"] as [string, string],
        ),
        ["x", "too_short"],
      ];
      for (const [locale, code] of refused)
        expectCoded(
          await api.call("createUserSession", { body: { user_identifier: refusedUser, locale } }),
          422,
          "validation_error",
          "locale",
          code,
          `locale ${JSON.stringify(locale)}`,
        );
      expectCoded(
        await api.call("getUser", { path: { user_identifier: refusedUser } }),
        404,
        "not_found",
        undefined,
        undefined,
        "a refused locale creates no user",
      );
    },
  },
  {
    id: "users.unknown-user-not-found",
    title: "a user the partner never created is 404 not_found to read, update, delete and list domains of",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const path = { user_identifier: uniqueUser(context, "nobody") };
      expectCoded(await api.call("getUser", { path }), 404, "not_found");
      expectCoded(await api.call("listUserDomains", { path }), 404, "not_found");
      if (api.has("updateUser")) expectCoded(await api.call("updateUser", { path, body: { email: "x@example.com" } }), 404, "not_found");
      if (api.has("deleteUser")) expectCoded(await api.call("deleteUser", { path }), 404, "not_found");
      expectCoded(await api.call("getUser", { path }), 404, "not_found", undefined, undefined, "the calls above created nothing");
    },
  },
  {
    id: "users.update-reads-back",
    title: "updating a user's e-mail answers it and reads back; null removes it; an invalid one is 422 invalid_format and changes nothing",
    needs: ["state"],
    operations: ["updateUser"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "updated");
      await setUp(api, "createUserSession", { body: { user_identifier: user, email: "before@example.com" } });
      const path = { user_identifier: user };
      const updated = await api.call("updateUser", { path, body: { email: "after@example.com" } });
      expectAnswer(updated, 200, { user_identifier: user, email: "after@example.com" });
      expectAnswer(await api.call("getUser", { path }), 200, { email: "after@example.com" }, "read after the update");
      expectAnswer(
        await api.call("updateUser", { path, body: {} }),
        200,
        { email: "after@example.com" },
        "an omitted e-mail changes nothing",
      );
      const refused = await api.call("updateUser", { path, body: { email: "no-at-sign" } });
      expectCoded(refused, 422, "validation_error", "email", "invalid_format");
      expectAnswer(await api.call("getUser", { path }), 200, { email: "after@example.com" }, "read after a refused update");
      expectAnswer(await api.call("updateUser", { path, body: { email: null } }), 200, { email: null });
      expectAnswer(await api.call("getUser", { path }), 200, { email: null }, "read after removing the e-mail");
    },
  },
  {
    id: "users.delete-removes-everything",
    title: "deleting a user (204, no body) removes it with its domains, DNS records and transfers, by id and in every list",
    needs: ["state"],
    operations: ["deleteUser"],
    async run(context) {
      const { api } = context;
      const estate = await createUserEstate(context, "deleted_user");
      const path = { user_identifier: estate.user };
      const deleted = await api.call("deleteUser", { path });
      expectAnswer(deleted, 204);
      const gone: Array<[string, CallResult]> = [
        ["the user", await api.call("getUser", { path })],
        ["the user's domains", await api.call("listUserDomains", { path })],
        ["the user's transfer", await api.call("getTransfer", { path: { transfer_id: estate.transferId } })],
      ];
      if (estate.domainId) {
        const domain = { domain_id: estate.domainId };
        gone.push(["the user's domain", await api.call("getDomain", { path: domain })]);
        gone.push(["renewing the user's domain", await api.call("renewDomain", { path: domain, body: { years: 1 } })]);
        if (api.has("listDomainDnsRecords")) gone.push(["the domain's records", await api.call("listDomainDnsRecords", { path: domain })]);
        if (estate.recordIdD)
          gone.push([
            "the domain's record (Variant D)",
            await api.call("updateDomainDnsRecord", { path: { ...domain, record_id: estate.recordIdD }, body: { ttl: 600 } }),
          ]);
      }
      if (estate.recordIdR)
        gone.push(["the domain's record (Variant R)", await api.call("getDnsRecord", { path: { id: estate.recordIdR } })]);
      const left = gone.filter(([, result]) => result.status !== 404 || result.violations.length > 0);
      if (left.length)
        throw new Error(
          `after deleting the user, these are still there (expected 404): ${left.map(([what, r]) => `${what}: ${r.label} answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`).join("; ")}`,
        );
      for (const [, result] of gone.filter(([what]) => !what.includes("Variant R")))
        expect(result.body).toMatchObject({ error: "not_found" });
      expectAnswer(
        await api.call("createUserSession", { body: { user_identifier: estate.user } }),
        201,
        {},
        "the identifier is free again",
      );
      expectAnswer(await api.call("getUser", { path }), 200, { domain_count: 0 }, "a new user of the same identifier owns nothing");
    },
  },
  {
    id: "users.session-lasts-24-hours",
    title: "a session's expires_at is exactly 24 hours after it was opened (by the sandbox clock, else the answer's Date)",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = uniqueUser(context, "lifetime");
      const clock = api.has("getSandboxClock");
      // A sandbox clock that was never advanced reads as the real one: moved on, it shows a session timed by the wrong clock.
      if (clock && api.has("advanceSandboxClock") && (await setUp(api, "getSandboxClock", {})).advanced_seconds < 60)
        await setUp(api, "advanceSandboxClock", { body: { seconds: 120 } });
      const before = clock ? (await setUp(api, "getSandboxClock", {})).now : null;
      const session = await api.call("createUserSession", { body: { user_identifier: user } });
      expectAnswer(session, 201);
      if (session.body.expires_at === undefined) context.notApplicable("the Variant R session has no expires_at (embed.* check its end)");
      const after = clock ? (await setUp(api, "getSandboxClock", {})).now : null;
      const dated = session.headers.get("date");
      const opened = clock
        ? [before as string, after as string]
        : dated
          ? [new Date(dated).toISOString(), new Date(dated).toISOString()]
          : null;
      if (!opened) return context.notApplicable("the target has no sandbox clock and its answer no Date header");
      const lifetimes = opened.map((at) => secondsBetween(at, session.body.expires_at));
      // The session opened between the two readings: its lifetime from the first is at least, from the second at most, a day
      // (give or take the second to which timestamps are written).
      const slack = 1;
      if (!(lifetimes[0]! >= DAY_SECONDS - slack && lifetimes[1]! <= DAY_SECONDS + slack))
        throw new Error(
          `expires_at ${session.body.expires_at} is ${lifetimes[0]} s after the session was opened (${opened[0]}), not ${DAY_SECONDS} s (24 hours)`,
        );
    },
  },
]);
