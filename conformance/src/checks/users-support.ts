/** A user with something of everything it can own, made for one check, so what a delete or another partner does to it shows. */
import type { CheckContext } from "../check.js";
import { setUp } from "../fixtures.js";
import { expectAnswer } from "./expectations.js";

export interface UserEstate {
  user: string;
  email: string;
  loginUrl: string;
  /** Null where the target cannot make one (no sandbox helpers, or the other variant). */
  domainId: string | null;
  domainName: string | null;
  recordIdD: string | null;
  recordIdR: string | null;
  transferId: string;
}

/** A user identifier the check alone uses: letters, digits and underscores only. */
export const uniqueUser = (context: CheckContext, stem: string) => context.unique(stem).replaceAll("-", "_");

/** Creates a user with a session, a sandbox domain, a record of each variant the target serves and a transfer. */
export async function createUserEstate(context: CheckContext, stem: string): Promise<UserEstate> {
  const { api } = context;
  const user = uniqueUser(context, stem);
  const email = `${user}@example.com`;
  const session = await setUp(api, "createUserSession", { body: { user_identifier: user, email } });
  const estate: UserEstate = {
    user,
    email,
    loginUrl: session.login_url,
    domainId: null,
    domainName: null,
    recordIdD: null,
    recordIdR: null,
    transferId: "",
  };
  if (api.has("createSandboxDomain")) {
    const domain = await setUp(api, "createSandboxDomain", {
      body: { user_identifier: user, domain_name: `${context.unique(stem.replaceAll("_", "-"))}.com`, years: 1 },
    });
    estate.domainId = domain.id;
    estate.domainName = domain.name;
  }
  if (estate.domainId && api.has("createDomainDnsRecord"))
    estate.recordIdD = (
      await setUp(api, "createDomainDnsRecord", {
        path: { domain_id: estate.domainId },
        body: { type: "A", name: "www", content: "192.0.2.10" },
      })
    ).id;
  if (estate.domainId && api.has("createDnsRecord"))
    estate.recordIdR = (
      await setUp(api, "createDnsRecord", { body: { domain_id: estate.domainId, type: "TXT", name: "owner", value: user } })
    ).id;
  estate.transferId = (
    await setUp(api, "initiateTransfer", {
      body: { domain_name: `${context.unique(`${stem.replaceAll("_", "-")}-t`)}.com`, user_identifier: user, auth_code: "Xk8#pL2q!Rm9" },
    })
  ).transfer_id;
  return estate;
}

/** Whole seconds between two timestamps of the API (which are to the second). */
export const secondsBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

/** A user as listUsers shows it. */
export interface ListedUser {
  user_identifier: string;
  email: string | null;
  created_at: string;
  last_login: string;
  domain_count: number;
}

/** Every user of the partner, page by page (the list is bounded: at most this many pages are read). */
export async function listedUser(context: CheckContext, user: string, key?: string): Promise<ListedUser | null> {
  const maxPages = 50;
  for (let page = 0, offset = 0; page < maxPages; page++) {
    const result = await context.api.call("listUsers", { query: { limit: 100, offset }, ...(key ? { key } : {}) });
    expectAnswer(result, 200);
    const found = (result.body.users as ListedUser[]).find((entry) => entry.user_identifier === user);
    if (found) return found;
    offset += result.body.users.length;
    if (result.body.users.length === 0 || offset >= result.body.total) return null;
  }
  throw new Error(`listUsers has more than ${maxPages} pages of 100: the kit gives up looking for ${user}`);
}
