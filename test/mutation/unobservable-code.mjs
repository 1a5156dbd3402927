/**
 * Code of server/partners/keys, server/domain/domains and server/domain/dns whose mutants no client of the API can tell
 * apart from the original, each with why (read by test/mutation/unobservable-ignorer.mjs; the
 * reasons appear in Stryker's report as the mutants' "ignored" reason). An entry names a file and
 * either a function (all of it) or the start of a statement, block or expression's source (all of
 * that; runs of white space compare as one space).
 *
 * An entry belongs here only when no HTTP exchange could show the difference: a path the API never
 * takes, or a second guard behind one the API always passes through first. A mutant a check could
 * catch gets the check instead.
 */

/** Reached from the dashboard, the embedded interface or `npm run keys`, never from the API. */
const DASHBOARD_KEYS =
  "keys made, named, listed or rolled in the dashboard or by `npm run keys`: the API has no operation for it (test/server/partners/keys, test/server/dashboard)";
const EMBED_PURCHASE =
  "the embedded interface's purchase and renewal forms (a price shown, then charged), which the API does not reach (test/server/embed, test/e2e)";
const SCHEMA_FIRST = "a second guard: the published schema refuses such a request before this code runs, and the kit checks that refusal";

const OPERATOR_FILE =
  "the partners file's reading, following and writing: what an operator's file holds and when it changes, which no request can cause (test/server/partners/keys/partner-keys.test.ts, test/server/assembly/startup.test.ts)";
const CONFIGURED_KEYS =
  "keys an operator configures at start-up (PARTNER_API_KEYS) and their listing in the start-up log: no request reaches it (test/server/partners/keys/partner-keys.test.ts)";
const OTHER_ENVIRONMENT =
  "which environment a key's prefix names: a key of the other environment is never held (holding one stops the server at start-up), so the hash lookup refuses it whatever the prefix is read as; only a deployment of each environment side by side could tell (AUTH-11)";
const MISSING_SRV_FIELDS =
  "an SRV without priority, weight or port is refused with 422 either way: the content it would make is no SRV content, and Variant R's list shape names no field";
const MESSAGE = "the wording of a message for people, which no check may rely on";
const UNKNOWN_TOKEN =
  "a token not of the format hashes to nothing stored, so the lookup answers unknown as the guard does; and the embed host treats every state but open and expired as unknown";

export const UNOBSERVABLE_CODE = [
  // server/partners/keys
  { file: "server/partners/keys/key-management.ts", function: "keyNameProblem", reason: DASHBOARD_KEYS },
  { file: "server/partners/keys/key-management.ts", function: "createKey", reason: DASHBOARD_KEYS },
  { file: "server/partners/keys/key-management.ts", function: "rollKey", reason: DASHBOARD_KEYS },
  { file: "server/partners/keys/api-keys.ts", function: "generateApiKey", reason: DASHBOARD_KEYS },
  { file: "server/partners/keys/partners-file.ts", function: "parsePartnersFile", reason: OPERATOR_FILE },
  { file: "server/partners/keys/partners-file.ts", function: "readPartnersFile", reason: OPERATOR_FILE },
  { file: "server/partners/keys/partners-file.ts", function: "writePartnersFile", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "sameFile", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "read", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "apply", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "refuse", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "partners", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", function: "loggedPartnersFileEvents", reason: OPERATOR_FILE },
  // current()'s answer is observable (the second partner's key); when it re-reads is the file's business.
  { file: "server/partners/keys/followed-partners-file.ts", code: "if (stats === undefined)", reason: OPERATOR_FILE },
  { file: "server/partners/keys/followed-partners-file.ts", code: "catch (error) { this.refuse(", reason: OPERATOR_FILE },
  { file: "server/partners/keys/api-keys.ts", function: "addKey", reason: CONFIGURED_KEYS },
  { file: "server/partners/keys/api-keys.ts", function: "revoke", reason: CONFIGURED_KEYS },
  { file: "server/partners/keys/api-keys.ts", function: "loaded", reason: CONFIGURED_KEYS },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "private readonly stored: () => ApiKeyStore | null = () => null",
    reason: "a default the server never takes: it always passes its store",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "private readonly now: () => Date = () => new Date()",
    reason: "a default the server never takes: it always passes its clock",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    function: "partnerFor",
    reason: "not called by the server, which asks holderOf (below); the server's own tests read keys through it",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "if (key.startsWith(KEY_PREFIX.production))",
    reason: OTHER_ENVIRONMENT,
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "if (environmentOfKey(key) !== this.environment) return null",
    reason: "a second guard: a key of the other environment is never held, so the lookup after it refuses the key alike",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "storedHash.length !== keyHash.length",
    reason:
      "a stored hash is always SHA-256's 32 bytes, found by that very hash: the comparison guards timingSafeEqual, which throws on lengths that differ",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: "if (stored.lastUsedAt === null",
    reason: "a stored key's last use is shown in the dashboard's key list, not by the API",
  },
  { file: "server/domain/sessions/user-sessions.ts", code: "if (!TOKEN.test(token))", reason: UNKNOWN_TOKEN },
  { file: "server/domain/sessions/user-sessions.ts", code: "if (id === undefined || !TOKEN.test(id))", reason: UNKNOWN_TOKEN },
  { file: "server/domain/sessions/user-sessions.ts", code: '{ state: "unknown" }', reason: UNKNOWN_TOKEN },
  {
    file: "server/partners/keys/followed-partners-file.ts",
    code: "if (refusal !== null) throw new PartnersFileError(refusal);",
    reason: OPERATOR_FILE,
  },
  {
    file: "server/domain/sessions/user-sessions.ts",
    code: 'if (login.state === "unknown") return { state: "expired"',
    reason:
      "a second guard: the store removes a browser session with the login session it came from (one more login session, the expiry sweep, the user's deletion), so no request meets a browser session without its login session",
  },
  {
    file: "server/partners/keys/api-keys.ts",
    code: 'if (key.startsWith(KEY_PREFIX.sandbox)) return "sandbox";',
    reason: OTHER_ENVIRONMENT,
  },
  {
    file: "server/partners/keys/followed-partners-file.ts",
    code: "stats = statSync(this.path, { throwIfNoEntry: false });",
    reason: OPERATOR_FILE,
  },
  // server/domain/domains
  { file: "server/domain/domains/purchase.ts", function: "purchaseQuote", reason: EMBED_PURCHASE },
  { file: "server/domain/domains/purchase.ts", code: "if (purchase.expectedCharge !== undefined", reason: EMBED_PURCHASE },
  { file: "server/domain/domains/renewal.ts", code: "if (expectedCost !== undefined", reason: EMBED_PURCHASE },
  {
    file: "server/domain/domains/renewal.ts",
    function: "renewableYears",
    reason: "the most years the embedded interface's renewal form offers, and the API's 422 message: the API's refusal itself is measured",
  },
  { file: "server/domain/domains/renewal.ts", function: "maxRenewableYears", reason: "as renewableYears, whose count it is" },
  { file: "server/domain/domains/renewal.ts", code: "assertRegistrationYears(years)", reason: SCHEMA_FIRST },
  { file: "server/domain/domains/registration.ts", function: "assertRegistrationYears", reason: SCHEMA_FIRST },
  { file: "server/domain/domains/purchase.ts", code: "assertRegistrationYears(years)", reason: SCHEMA_FIRST },
  {
    file: "server/domain/domains/registration.ts",
    code: "if (await store.findDomainByName(registration.name))",
    reason: "a second guard: every caller asks availability first, which refuses a registered name with 409 not_available",
  },
  {
    file: "server/domain/domains/registration.ts",
    code: "if (!user) throw",
    reason: "a second guard: every caller looked the user up first and answered 404 not_found",
  },
  {
    file: "server/domain/domains/purchase.ts",
    code: "if (!(await store.findUser(",
    reason:
      "registerDomain refuses an unknown user with the same 404 before anything is written; only the order of refusals for a request wrong twice could differ, which the description does not fix",
  },
  // server/domain/dns
  {
    file: "server/domain/dns/record-rules.ts",
    code: "if (!Number.isInteger(draft.ttl) || draft.ttl < 60 || draft.ttl > 86400)",
    reason: SCHEMA_FIRST,
  },
  {
    file: "server/domain/dns/mail-policy-records.ts",
    function: "secondPolicyMessage",
    reason: MESSAGE,
  },
  {
    file: "server/domain/dns/default-ttl.ts",
    function: "interfaceDefaultTtl",
    reason: "the embedded interface's add form, which the API does not reach (test/server/embed, test/e2e)",
  },
  {
    file: "server/domain/dns/templates.ts",
    code: "values[name] ?? `%${name}%`",
    reason:
      "a second guard: every variable of a template is given or defaulted before substitution (an unknown or missing one is refused first)",
  },
  {
    file: "server/domain/dns/change-sets.ts",
    code: "const count = errors.length === 1",
    reason: MESSAGE,
  },
  {
    file: "server/domain/dns/change-sets.ts",
    code: 'throw new Error("a checked change set went past',
    reason: "an invariant: the record limit was checked in the same transaction, so no request reaches it",
  },
  {
    file: "server/domain/dns/variant-r-input.ts",
    code: "unprocessable(",
    reason:
      "Variant R answers a refusal in the list shape, which holds the messages only (prose): the field and code given here are not shown",
  },
  {
    file: "server/domain/dns/variant-r-input.ts",
    code: 'const missing = (["priority", "weight", "port"] as const)',
    reason: MISSING_SRV_FIELDS,
  },
  {
    file: "server/domain/dns/variant-r-input.ts",
    code: "if (missing.length > 0)",
    reason: MISSING_SRV_FIELDS,
  },
  {
    file: "server/domain/dns/variant-r-input.ts",
    code: "if (value !== undefined) (merged",
    reason: "a JSON body holds no undefined member: every member of the patch has a value",
  },
  {
    file: "server/domain/dns/record-service.ts",
    code: "if (!(error instanceof ApiError) || error.status >= 500) throw error;",
    reason: "a record of a bulk request failing with anything but a refusal (a store failure): no request can cause one",
  },
];
