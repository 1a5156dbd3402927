/**
 * Authentication: every key that is not a valid key of this partner in this environment is
 * refused with 401 `unauthorized` (never 403, never accepted), and a refused request changes nothing.
 */
import { randomBytes } from "node:crypto";
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallInput } from "../contract-client.js";
import { PRISM_PROXY_ANSWERS_ITSELF } from "./operations.js";
import { uniqueUser } from "./users-support.js";

const PREFIXES = { sandbox: "sk_sandbox_", production: "sk_live_" } as const;
const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const randomBase62 = (length: number) => [...randomBytes(length)].map((byte) => BASE62[byte % 62]).join("");

/** The part of a key after its environment's prefix. */
const secretOf = (key: string) => key.replace(/^sk_(sandbox|live)_/, "");

/** The same key with one character of its secret part changed. */
function alteredKey(key: string): string {
  const last = key.at(-1)!;
  return key.slice(0, -1) + (last === "A" ? "B" : "A");
}

/**
 * Calls that must be refused with 401 unauthorized: a read of the partner's own user (so an
 * accepted key shows) and a user creation (so a refused write can be seen to change nothing).
 */
async function expectRefused(context: CheckContext, what: string, credentials: Pick<CallInput, "key" | "headers">): Promise<void> {
  const { api } = context;
  const fixtures = await context.fixtures();
  const created = uniqueUser(context, "refused");
  const attempts = [
    await api.call("getUser", { path: { user_identifier: fixtures.user }, ...credentials }),
    await api.call("createUserSession", { body: { user_identifier: created }, ...credentials }),
    await api.call("getApiHealth", { ...credentials }),
  ];
  for (const result of attempts) {
    if (result.status !== 401 || result.body?.error !== "unauthorized")
      throw new Error(
        `${what}: ${result.label} answered ${result.status} ${JSON.stringify(result.body)?.slice(0, 200)}, expected 401 unauthorized`,
      );
    expect(result.violations).toEqual([]);
  }
  if (!context.target.stateless) {
    const after = await api.call("getUser", { path: { user_identifier: created } });
    if (after.status !== 404)
      throw new Error(`${what}: the refused POST /api/v1/users created the user anyway (GET answered ${after.status})`);
  }
}

export default defineChecks([
  {
    id: "auth.malformed-header-refused",
    title: "a malformed Authorization header (no scheme, another scheme, empty, extra parts, bad characters) is 401 unauthorized",
    async run(context) {
      if (context.target.throughPrismProxy) context.notApplicable(PRISM_PROXY_ANSWERS_ITSELF);
      if (context.target.stateless) context.notApplicable("a mock accepts any bearer token");
      const key = context.target.apiKey;
      const headers: Record<string, string> = {
        "the key without a scheme": key,
        "the key under Basic": `Basic ${Buffer.from(`${key}:`).toString("base64")}`,
        "the key under Token": `Token ${key}`,
        "Bearer alone": "Bearer",
        "Bearer and a space": "Bearer ",
        "an empty header": "",
        "the key twice": `Bearer ${key} ${key}`,
        "the key with a trailing character": `Bearer ${key}!`,
        garbage: "Bearer !!!%%%",
      };
      for (const [what, value] of Object.entries(headers))
        await expectRefused(context, what, { key: null, headers: { Authorization: value } });
    },
  },
  {
    id: "auth.unknown-key-refused",
    title:
      "a well-formed key the service never issued (random, or the partner's key with one character changed or in another case) is 401 unauthorized",
    async run(context) {
      if (context.target.stateless) context.notApplicable("a mock accepts any bearer token");
      const { apiKey, environment } = context.target;
      await expectRefused(context, "a random key", { key: PREFIXES[environment] + randomBase62(32) });
      await expectRefused(context, "the key with its last character changed", { key: alteredKey(apiKey) });
      const otherCase =
        PREFIXES[environment] + [...secretOf(apiKey)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
      if (otherCase !== apiKey) await expectRefused(context, "the key with its letters' case swapped", { key: otherCase });
      await expectRefused(context, "the key cut short", { key: apiKey.slice(0, -4) });
    },
  },
  {
    id: "auth.unknown-path-needs-key",
    title:
      "a request for a path the API does not have is 401 unauthorized without a key (the API's shape is not shown) and 404 not_found with one",
    async run(context) {
      if (context.target.throughPrismProxy) context.notApplicable(PRISM_PROXY_ANSWERS_ITSELF);
      if (context.target.stateless) context.notApplicable("a mock answers unknown paths in its own shape");
      const url = `${context.target.baseUrl}/api/v1/${context.unique("no-such-resource")}`;
      const answer = async (key: string | null) => {
        const response = await fetch(url, { headers: { Accept: "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) } });
        const text = await response.text();
        return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : text };
      };
      expect(await answer(null)).toMatchObject({ status: 401, body: { error: "unauthorized" } });
      expect(await answer(PREFIXES[context.target.environment] + randomBase62(32))).toMatchObject({
        status: 401,
        body: { error: "unauthorized" },
      });
      expect(await answer(context.target.apiKey)).toMatchObject({ status: 404, body: { error: "not_found" } });
    },
  },
  {
    id: "auth.revoked-key-refused",
    title: "a revoked key of the partner is 401 unauthorized and changes nothing",
    needs: ["revoked-key"],
    async run(context) {
      if (context.target.stateless) context.notApplicable("a mock accepts any bearer token");
      await expectRefused(context, "the revoked key", { key: context.target.revokedKey! });
    },
  },
  {
    id: "auth.other-environment-key-refused",
    title:
      "a key of the other environment (sk_live_ against the sandbox, sk_sandbox_ against production) is 401 unauthorized, never accepted",
    async run(context) {
      if (context.target.stateless) context.notApplicable("a mock accepts any bearer token");
      const { apiKey, environment } = context.target;
      const other = environment === "sandbox" ? PREFIXES.production : PREFIXES.sandbox;
      await expectRefused(context, `the partner's key under the prefix ${other}`, { key: other + secretOf(apiKey) });
      await expectRefused(context, `a random ${other} key`, { key: other + randomBase62(32) });
    },
  },
]);
