/** The partner's users and their embedded-interface sessions. */
import { assertDomainAllowed, currentRestrictions } from "../../domain/access/key-access.js";
import type { OperationHandlers } from "../../../generated/handlers.js";
import { timestamp } from "../../platform/clock.js";
import { assertIfMatch, entityTag } from "../../platform/entity-tags.js";
import { partnerOf, type RequestContext, type Services } from "../../application/context.js";
import { openLoginSession } from "../../domain/sessions/user-sessions.js";
import { apiErrors } from "../../platform/errors.js";
import { canonicalLocaleTag } from "../../platform/locale.js";
import { formatCents } from "../../platform/money.js";
import { userPage } from "../../domain/users/user-pages.js";
import type { UserPageEntry, UserRow } from "../../domain/users/user-store.js";

type Handlers = OperationHandlers<RequestContext>;

async function requireUser(services: Services, partnerId: string, userIdentifier: string): Promise<UserRow> {
  const user = await services.store.findUser(partnerId, userIdentifier);
  if (!user) throw apiErrors.notFound("User", userIdentifier);
  return user;
}

function listItem({ user, domainCount }: UserPageEntry) {
  return {
    user_identifier: user.userIdentifier,
    email: user.email,
    created_at: timestamp(user.createdAt),
    last_login: timestamp(user.lastLogin),
    domain_count: domainCount,
  };
}

export const userHandlers: Pick<Handlers, "createUserSession" | "listUsers" | "getUser" | "updateUser" | "deleteUser"> = {
  createUserSession: async ({ body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const locale = body.locale === undefined ? null : canonicalLocaleTag(body.locale);
    // The schema's pattern admits the shape of a tag; only Intl knows every rule of BCP 47 (no repeated variant, a known extension form).
    if (locale === null && body.locale !== undefined)
      throw apiErrors.invalidValue("locale", "invalid_format", "locale must be a well-formed BCP 47 language tag such as de or de-CH");
    const now = services.clock.now();
    const existing = await services.store.findUser(partner.id, body.user_identifier);
    const user: UserRow = existing
      ? { ...existing, email: body.email ?? existing.email, lastLogin: now, updatedAt: body.email !== undefined ? now : existing.updatedAt }
      : {
          partnerId: partner.id,
          userIdentifier: body.user_identifier,
          email: body.email ?? null,
          createdAt: now,
          lastLogin: now,
          updatedAt: now,
          totalSpent: 0,
        };
    await services.store.saveUser(user);
    const { token, expiresAt } = await openLoginSession(services, partner.id, user.userIdentifier, now, locale);
    return {
      status: 201,
      body: {
        user_identifier: user.userIdentifier,
        login_url: `${services.deployment.embedBaseUrl}/session/${token}`,
        expires_at: timestamp(expiresAt),
      },
    };
  },

  listUsers: async ({ query }, context) => {
    const { limit = 50, offset = 0, sort = "created_at", order = "desc", cursor } = query;
    const { users, total, nextCursor } = await userPage(context.services.store, partnerOf(context).id, {
      limit,
      offset,
      sort,
      order,
      cursor,
    });
    return { status: 200, body: { users: users.map(listItem), total, limit, offset, next_cursor: nextCursor } };
  },

  getUser: async ({ path }, context) => {
    const { services } = context;
    const user = await requireUser(services, partnerOf(context).id, path.user_identifier);
    const domainCount = await services.store.countDomains(user.partnerId, user.userIdentifier);
    return { status: 200, body: { ...listItem({ user, domainCount }), total_spent: formatCents(user.totalSpent) }, etag: entityTag(user) };
  },

  updateUser: async ({ path, header, body }, context) => {
    const { services } = context;
    const user = await requireUser(services, partnerOf(context).id, path.user_identifier);
    assertIfMatch(header["If-Match"], user, "user");
    const updated: UserRow = { ...user, email: body.email === undefined ? user.email : body.email, updatedAt: services.clock.now() };
    await services.store.saveUser(updated);
    return {
      status: 200,
      body: { user_identifier: updated.userIdentifier, email: updated.email, updated_at: timestamp(updated.updatedAt) },
      etag: entityTag(updated),
    };
  },

  deleteUser: async ({ path, header }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    assertIfMatch(header["If-Match"], await requireUser(services, partner.id, path.user_identifier), "user");
    // Deleting a user deletes their domains: a key restricted to some domains deletes no user holding another.
    if (currentRestrictions()?.domains)
      for (const domain of await services.store.domainsOfUser(partner.id, path.user_identifier)) assertDomainAllowed(domain.name);
    await services.store.deleteUser(partner.id, path.user_identifier);
    services.outbox.emit(partner.id, "user.deleted", { data: { user_identifier: path.user_identifier } });
    return { status: 204 };
  },
};
