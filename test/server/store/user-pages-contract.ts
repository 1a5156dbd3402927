/**
 * What every store promises of the users list paged by cursor (server/domain/users/user-pages.ts
 * over UserStore.listUsers after a position): the pages joined are the list paged by offset, each
 * user once, wherever the page boundaries fall among equal sort values. Run inside the store
 * contract (store-contract.ts) on memory, PGlite and PostgreSQL.
 */
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../../server/platform/errors.js";
import type { Persistence } from "../../../server/store/persistence.js";
import { type UserListQuery, userPage } from "../../../server/domain/users/user-pages.js";
import type { UserSort } from "../../../server/domain/users/user-store.js";
import { at, domainRow, uniqueId, userRow } from "./store-contract.js";

const SORTS: readonly UserSort[] = ["created_at", "last_login", "domain_count"];
const ORDERS = ["asc", "desc"] as const;

export function describeUserPages(persistenceOf: () => Persistence): void {
  describe("the users list paged by cursor", () => {
    /**
     * Nine users whose sort values tie in threes in every sort (a page boundary falls inside a
     * tie at every page size below three), saved out of identifier order.
     */
    async function aPartnerOfTies() {
      const partnerId = uniqueId("ptn");
      const store = persistenceOf().store;
      for (const [i, identifier] of ["u5", "u1", "u8", "u3", "u0", "u7", "u2", "u6", "u4"].entries()) {
        const user = userRow(partnerId, identifier, { createdAt: at(`0${i % 3}:00:00`), lastLogin: at(`0${(i + 1) % 3}:30:00`) });
        await store.saveUser(user);
        for (let d = 0; d < i % 3; d++) await store.saveDomain(domainRow(user));
      }
      return partnerId;
    }

    const ids = (page: { users: { user: { userIdentifier: string } }[] }) => page.users.map(({ user }) => user.userIdentifier);

    async function walk(partnerId: string, query: Omit<UserListQuery, "offset" | "cursor">) {
      const pages: Awaited<ReturnType<typeof userPage>>[] = [];
      let cursor: string | undefined;
      do {
        const page = await userPage(persistenceOf().store, partnerId, { ...query, offset: 0, cursor });
        pages.push(page);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined && pages.length < 20);
      return pages;
    }

    it("follows next_cursor from the first page to null through the list paged by offset, each user once, in every sort and order", async () => {
      const partnerId = await aPartnerOfTies();
      for (const sort of SORTS)
        for (const order of ORDERS) {
          const whole = ids(await persistenceOf().store.listUsers(partnerId, { sort, order, offset: 0, limit: 100 }));
          expect(whole).toHaveLength(9);
          for (const limit of [1, 2, 4, 9, 10]) {
            const pages = await walk(partnerId, { sort, order, limit });
            expect(pages.flatMap(ids), `${sort} ${order}, limit ${limit}`).toEqual(whole);
            expect(pages).toHaveLength(Math.ceil(9 / limit));
            for (const page of pages) expect(page.total).toBe(9);
            expect(pages.at(-1)!.nextCursor).toBeNull();
            expect(pages.slice(0, -1).every((page) => page.nextCursor !== null)).toBe(true);
          }
        }
    });

    it("gives a cursor on a page by offset that continues after it, and null on a page that ends the list exactly", async () => {
      const partnerId = await aPartnerOfTies();
      const query = { sort: "domain_count", order: "desc", limit: 3 } as const;
      const second = await userPage(persistenceOf().store, partnerId, { ...query, offset: 3 });
      const third = await userPage(persistenceOf().store, partnerId, { ...query, offset: 0, cursor: second.nextCursor! });
      expect(ids(third)).toEqual(ids(await userPage(persistenceOf().store, partnerId, { ...query, offset: 6 })));
      expect(third.nextCursor).toBeNull();
      expect((await userPage(persistenceOf().store, partnerId, { ...query, offset: 9 })).nextCursor).toBeNull();
    });

    it("continues after a cursor's user deleted or moved meanwhile, from where that user stood", async () => {
      const partnerId = await aPartnerOfTies();
      const store = persistenceOf().store;
      const query = { sort: "created_at", order: "asc", limit: 4 } as const;
      const whole = ids(await store.listUsers(partnerId, { ...query, offset: 0, limit: 100 }));
      const first = await userPage(store, partnerId, { ...query, offset: 0 });
      const last = first.users.at(-1)!.user;
      await store.deleteUser(partnerId, last.userIdentifier);
      const rest = await userPage(store, partnerId, { ...query, offset: 0, cursor: first.nextCursor! });
      expect(ids(rest)).toEqual(whole.slice(4, 8));
      expect(rest.total).toBe(8);
      // A move takes the user out of its place: the list continues from where the cursor's user stood.
      const next = rest.users.at(-1)!.user;
      await store.saveUser({ ...next, createdAt: at("23:00:00") });
      const after = await userPage(store, partnerId, { ...query, limit: 10, offset: 0, cursor: first.nextCursor! });
      expect(ids(after)).toEqual([...whole.slice(4, 7), whole[8], next.userIdentifier]);
    });

    it("answers an empty page with the total, and a partner without users an empty one with total 0", async () => {
      const partnerId = await aPartnerOfTies();
      const store = persistenceOf().store;
      const last = (await store.listUsers(partnerId, { sort: "last_login", order: "desc", offset: 8, limit: 1 })).users[0]!;
      const position = { sortValue: last.user.lastLogin.getTime(), userIdentifier: last.user.userIdentifier };
      expect(await store.listUsers(partnerId, { sort: "last_login", order: "desc", offset: 0, limit: 5, after: position })).toEqual({
        users: [],
        total: 9,
      });
      expect(await userPage(store, uniqueId("ptn"), { sort: "created_at", order: "desc", offset: 0, limit: 5 })).toEqual({
        users: [],
        total: 0,
        nextCursor: null,
      });
    });

    it("skips an offset after the position, as the store's page does from the start", async () => {
      const partnerId = await aPartnerOfTies();
      const store = persistenceOf().store;
      for (const sort of SORTS)
        for (const order of ORDERS) {
          const whole = await store.listUsers(partnerId, { sort, order, offset: 0, limit: 100 });
          const { user, domainCount } = whole.users[2]!;
          const sortValue = sort === "domain_count" ? domainCount : (sort === "created_at" ? user.createdAt : user.lastLogin).getTime();
          const after = { sortValue, userIdentifier: user.userIdentifier };
          expect(ids(await store.listUsers(partnerId, { sort, order, offset: 2, limit: 3, after })), `${sort} ${order}`).toEqual(
            ids(whole).slice(5, 8),
          );
        }
    });

    it("refuses a cursor of another sort or order, one sent with an offset, and one it did not give out", async () => {
      const partnerId = await aPartnerOfTies();
      const store = persistenceOf().store;
      const refusal = async (query: UserListQuery) => {
        const error = (await userPage(store, partnerId, query).then(
          () => undefined,
          (thrown: unknown) => thrown,
        )) as ApiError | undefined;
        return error && { status: error.status, code: error.code, details: error.details };
      };
      const invalidCursor = { status: 400, code: "validation_error", details: { field: "cursor", code: "invalid_cursor" } };
      for (const sort of SORTS)
        for (const order of ORDERS) {
          const { nextCursor } = await userPage(store, partnerId, { sort, order, offset: 0, limit: 2 });
          for (const other of SORTS)
            for (const otherOrder of ORDERS) {
              const refused = await refusal({ sort: other, order: otherOrder, offset: 0, limit: 2, cursor: nextCursor! });
              expect(refused, `a ${sort} ${order} cursor sent with ${other} ${otherOrder}`).toEqual(
                other === sort && otherOrder === order ? undefined : invalidCursor,
              );
            }
          expect(await refusal({ sort, order, offset: 2, limit: 2, cursor: nextCursor! })).toEqual({
            status: 400,
            code: "validation_error",
            details: { field: "offset", code: "invalid_value" },
          });
        }
      for (const forged of ["not-a-cursor", Buffer.from(JSON.stringify(["u1", "created_at", "desc", -1, "u1"])).toString("base64url")])
        expect(await refusal({ sort: "created_at", order: "desc", offset: 0, limit: 2, cursor: forged })).toEqual(invalidCursor);
    });
  });
}
