/**
 * Every user of the partner, page after page of `GET /api/v1/users` (Variant D; limit/offset).
 *
 * Defaults favour a complete walk: `created_at` ascending, so users created during the walk are
 * appended at the end instead of shifting the pages still to come (the API's own default order is
 * newest first). Offset pages are not a snapshot: a user deleted during the walk moves later users
 * one place back, and one of them may be skipped.
 */
import type { Client } from "openapi-fetch";
import type { components, paths } from "./api-types.js";
import { PartnerApiError } from "./errors.js";

export type UserList = components["schemas"]["UserList"];
export type UserListItem = components["schemas"]["UserListItem"];

export interface UserPaginationOptions {
  /** Users per request, 1 to 100 (default 100, the API's maximum: fewer requests against `user_retrieval`). */
  pageSize?: number;
  sort?: "created_at" | "last_login" | "domain_count";
  order?: "asc" | "desc";
  signal?: AbortSignal;
}

/** Each page as the API answers it (with `total`). Throws PartnerApiError when a page fails. */
export async function* userPages(client: Client<paths>, options: UserPaginationOptions = {}): AsyncGenerator<UserList, void, undefined> {
  const query = { limit: options.pageSize ?? 100, sort: options.sort ?? "created_at", order: options.order ?? "asc" } as const;
  for (let offset = 0; ; ) {
    const { data, error, response } = await client.GET("/api/v1/users", { params: { query: { ...query, offset } }, signal: options.signal });
    if (!data) throw new PartnerApiError(response, error);
    yield data;
    offset += data.users.length;
    // An empty page ends the walk even if `total` says more: users were deleted meanwhile.
    if (data.users.length === 0 || offset >= data.total) return;
  }
}

/** Each user, across all pages. */
export async function* paginateUsers(client: Client<paths>, options: UserPaginationOptions = {}): AsyncGenerator<UserListItem, void, undefined> {
  for await (const page of userPages(client, options)) yield* page.users;
}
