/**
 * Deployment configuration from the environment and an optional partners file.
 *
 * PORT (3000), HOST (127.0.0.1), PARTNER_API_ENVIRONMENT (sandbox | production),
 * PARTNER_API_VARIANTS (R,D | R | D), PARTNER_API_EMBED_URL, PARTNER_API_CONFIG (partners file written
 * by `npm run keys`), PARTNER_API_KEYS (partnerId:key,... for CI secrets),
 * PARTNER_API_RATE_LIMIT_SCALE (multiplies every rate limit; default 1, for load tests),
 * PARTNER_API_VALIDATE_RESPONSES (on | off: whether an answer that breaks the published document
 * becomes a 500; off only to run the conformance kit against a server with a fault, never in production),
 * PARTNER_API_WEBHOOK_LEASE_MS (how long an instance holds a webhook delivery it is attempting,
 * after which another instance may attempt it; default DEFAULT_DELIVERY_LEASE_MS),
 * EMBED_PORT (3001: where the embed host that login_url opens listens; 0 turns it off),
 * PARTNER_API_EMBED_ORIGINS (partnerId=origin,...: origins allowed to frame the embedded interface,
 * added to the partners file's `embed_origins`), DEMO_HOST_PORT (3002: the demo partner's page that
 * frames the interface, served only for the demo partner; 0 turns it off), DASHBOARD_PORT (3003:
 * the partner dashboard and developer portal; 0 turns them off), PARTNER_API_DASHBOARD_URL (where
 * the dashboard is reached, for the links it sends; default http://HOST:DASHBOARD_PORT), LOG_LEVEL (info),
 * PARTNER_API_DEMO (on | off: whether a sandbox makes the demo partner and prints its key and sign-in),
 * PARTNER_API_TRUST_PROXY (the dashboard's `trust proxy`: which proxies in front of it may name the client
 * in X-Forwarded-For; none by default, docs/reference-server.md).
 * Where data lives (docs/persistence.md): DATABASE_URL (postgres://...: a PostgreSQL server, shared
 * by any number of instances) or PARTNER_API_DATA_DIR (embedded PostgreSQL, PGlite, in that
 * directory: one process), never both; neither keeps it in this process's memory.
 * PARTNER_API_DB_POOL_SIZE (connections per instance to DATABASE_URL).
 *
 * A value that cannot be used throws a ConfigurationError whose message names the setting;
 * `npm start` prints that one line and exits 2.
 */
import express from "express";
import ipaddr from "ipaddr.js";
import { pino, type LevelWithSilent } from "pino";
import type { AppConfig } from "./app.js";
import type { Environment, Variant } from "../../generated/deployment.js";
import { environmentOfKey, KEY_PREFIX } from "../partners/keys/api-keys.js";
import { PartnersFileError, readPartnersFile as readFile, type PartnersFile } from "../partners/keys/partners-file.js";
import { parseEmbedOrigin } from "../partners/framing/framing.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../platform/rate-limits/policy.js";

export const DEFAULT_PARTNERS_FILE = "partner-api.config.json";
const DEFAULT_EMBED_PORT = 3001;
const DEFAULT_DASHBOARD_PORT = 3003;

/** HOST as a URL names it: the any-address is reached on loopback, an IPv6 address in brackets. */
function urlHost(host: string): string {
  if (!ipaddr.isValid(host)) return host;
  const address = ipaddr.parse(host);
  if (address.range() === "unspecified") return "127.0.0.1";
  return address.kind() === "ipv6" ? `[${address.toString()}]` : address.toString();
}

/** Where a deployment keeps its data (server/assembly/open-persistence.ts opens it). */
export type StorageConfig =
  | { kind: "memory" }
  | { kind: "postgres"; databaseUrl: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string };

export interface DeploymentConfig {
  port: number;
  host: string;
  /** Port of the embed host; null when this process does not serve it. */
  embedPort: number | null;
  /** Port of the demo partner's host page; null when not served. */
  demoHostPort: number | null;
  /** Port of the partner dashboard and developer portal; null when this process does not serve them. */
  dashboardPort: number | null;
  /** Where the dashboard is reached, for the links of its e-mails and the banner. */
  dashboardUrl: string;
  /** PARTNER_API_EMBED_ORIGINS by partner id, also for partners made after loading (the demo partner). */
  embedOrigins: ReadonlyMap<string, string[]>;
  /** Express's `trust proxy` of the dashboard (PARTNER_API_TRUST_PROXY): a hop count, or addresses, subnets and named ranges. */
  dashboardTrustProxy: false | number | string;
  /** Whether a sandbox makes the demo partner (server/assembly/demo-partner.ts); PARTNER_API_DEMO=off says not. */
  demo: boolean;
  logLevel: LevelWithSilent;
  storage: StorageConfig;
  app: AppConfig;
}

/** A setting that cannot be used; the message names it. */
export class ConfigurationError extends Error {}

function fail(message: string): never {
  throw new ConfigurationError(`configuration: ${message}`);
}

/** pino's levels, most severe first, and silent. */
const LOG_LEVELS = [
  ...Object.entries(pino.levels.values)
    .sort(([, a], [, b]) => b - a)
    .map(([level]) => level),
  "silent",
];

function parseLogLevel(value: string | undefined): LevelWithSilent {
  const level = value ?? "info";
  if (!LOG_LEVELS.includes(level)) fail(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got ${value})`);
  return level as LevelWithSilent;
}

/**
 * Where login_url points unless PARTNER_API_EMBED_URL says: the embed host this process serves on
 * EMBED_PORT, by a name a browser reaches it under. For a loopback or any-address HOST that is
 * `localhost`, on purpose another site than the `127.0.0.1` of the demo page that frames it (so its
 * cookie is a real third-party one); any other HOST is the address itself. With no embed host here
 * (EMBED_PORT=0) the one of the default port is assumed; set PARTNER_API_EMBED_URL to where it runs.
 */
function defaultEmbedUrl(host: string, embedPort: number | null): string {
  const port = embedPort ?? DEFAULT_EMBED_PORT;
  if (!ipaddr.isValid(host)) return `http://${host}:${port}`;
  const address = ipaddr.parse(host);
  if (["loopback", "unspecified"].includes(address.range())) return `http://localhost:${port}`;
  return address.kind() === "ipv6" ? `http://[${address.toString()}]:${port}` : `http://${address.toString()}:${port}`;
}

function parseDemo(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  return fail(`PARTNER_API_DEMO must be on or off (got ${value})`);
}

/**
 * Off, an answer that breaks the published document goes out as the handler wrote it, as from an
 * implementation without a validator: what `npm run conformance:mutants` needs to see a fault the
 * kit must catch, instead of the 500 the validator would turn it into.
 */
function parseValidateResponses(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  return fail(`PARTNER_API_VALIDATE_RESPONSES must be on or off (got ${value})`);
}

function parseVariants(value: string | undefined): Variant[] {
  const variants = (value ?? "R,D").split(",").map((v) => v.trim().toUpperCase());
  if (variants.length === 0 || !variants.every((v) => v === "R" || v === "D"))
    fail(`PARTNER_API_VARIANTS must be R, D or R,D (got ${value})`);
  return [...new Set(variants)] as Variant[];
}

/** The partners file as it is at start-up (PARTNER_API_CONFIG); one that cannot be used stops the server. */
function readPartnersFile(path: string): PartnersFile {
  try {
    return readFile(path);
  } catch (error) {
    if (error instanceof PartnersFileError) fail(`PARTNER_API_CONFIG: ${error.message}`);
    throw error;
  }
}

function parsePort(name: string, value: string | undefined, fallback: number): number | null {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`${name} must be a port number (got ${value})`);
  return port === 0 ? null : port;
}

function embedOrigin(value: string, source: string): string {
  try {
    return parseEmbedOrigin(value);
  } catch (error) {
    return fail(`${source}: ${(error as Error).message}`);
  }
}

/** `partnerId=origin,...`; a partner may appear several times. */
function parseEmbedOriginsEnv(value: string | undefined): Map<string, string[]> {
  const byPartner = new Map<string, string[]>();
  for (const pair of (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at <= 0) fail("PARTNER_API_EMBED_ORIGINS must be partnerId=origin pairs separated by commas");
    const partnerId = pair.slice(0, at);
    byPartner.set(partnerId, [...(byPartner.get(partnerId) ?? []), embedOrigin(pair.slice(at + 1), "PARTNER_API_EMBED_ORIGINS")]);
  }
  return byPartner;
}

/**
 * PARTNER_API_TRUST_PROXY, read as Express reads `trust proxy`: a whole number of hops, or a
 * comma-separated list of addresses, subnets and the names loopback, linklocal, uniquelocal; Express
 * itself checks the list. `true` (every hop) is refused: any client could then name itself.
 */
function parseTrustProxy(value: string | undefined): false | number | string {
  const text = value?.trim();
  if (text === undefined || text === "" || text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (text === "true")
    fail("PARTNER_API_TRUST_PROXY=true would let any client choose its address: name the proxy's addresses or the number of hops");
  try {
    express().set("trust proxy", text);
  } catch (error) {
    fail(
      `PARTNER_API_TRUST_PROXY must be a number of hops or addresses, subnets, loopback, linklocal or uniquelocal (got ${text}: ${(error as Error).message})`,
    );
  }
  return text;
}

/** An empty value counts as unset: `DATABASE_URL= npm start` is the memory store, as without it. */
const setting = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

/**
 * DATABASE_URL, PARTNER_API_DATA_DIR and PARTNER_API_DB_POOL_SIZE. Messages never repeat
 * DATABASE_URL: it may hold a password, and the line reaches logs.
 */
export function parseStorage(env: NodeJS.ProcessEnv): StorageConfig {
  const databaseUrl = setting(env.DATABASE_URL);
  const dataDir = setting(env.PARTNER_API_DATA_DIR);
  const poolSizeSetting = setting(env.PARTNER_API_DB_POOL_SIZE);
  if (databaseUrl !== undefined && dataDir !== undefined)
    fail("DATABASE_URL and PARTNER_API_DATA_DIR are both set: choose PostgreSQL (DATABASE_URL) or the embedded one (PARTNER_API_DATA_DIR)");
  if (poolSizeSetting !== undefined && databaseUrl === undefined)
    fail("PARTNER_API_DB_POOL_SIZE applies only to a PostgreSQL server: set DATABASE_URL too, or remove it");
  if (databaseUrl !== undefined) {
    if (!isPostgresUrl(databaseUrl))
      fail("DATABASE_URL must be a postgres:// or postgresql:// URL (its value is not shown: it may hold a password)");
    if (poolSizeSetting === undefined) return { kind: "postgres", databaseUrl };
    const poolSize = Number(poolSizeSetting);
    if (!Number.isInteger(poolSize) || poolSize < 1)
      fail(`PARTNER_API_DB_POOL_SIZE must be a positive whole number (got ${poolSizeSetting})`);
    return { kind: "postgres", databaseUrl, poolSize };
  }
  if (dataDir !== undefined) return { kind: "pglite", dataDir };
  return { kind: "memory" };
}

function isPostgresUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  // No host is allowed: libpq's convention for the local socket (`postgres:///partner_api`).
  return url.protocol === "postgres:" || url.protocol === "postgresql:";
}

/** PARTNER_API_ENVIRONMENT: the environment a deployment serves, and the one its database is stamped with. */
export function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const environment = (env.PARTNER_API_ENVIRONMENT ?? "sandbox") as Environment;
  if (environment !== "sandbox" && environment !== "production")
    fail(`PARTNER_API_ENVIRONMENT must be sandbox or production (got ${environment})`);
  return environment;
}

export function loadDeploymentConfig(env: NodeJS.ProcessEnv): DeploymentConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number (got ${env.PORT})`);
  const environment = parseEnvironment(env);
  const partnersFilePath = env.PARTNER_API_CONFIG ?? DEFAULT_PARTNERS_FILE;
  const partnersFile = readPartnersFile(partnersFilePath);
  const embedOrigins = parseEmbedOriginsEnv(env.PARTNER_API_EMBED_ORIGINS);
  // The file's partners without their keys: the server follows the file for those (app.partnersFile).
  const partners: AppConfig["partners"][number][] = partnersFile.partners
    .filter((entry) => entry.environment === environment)
    .map((entry) => ({
      partner: { id: entry.id, name: entry.name },
      embedOrigins: (entry.embed_origins ?? []).map((origin) => embedOrigin(origin, `embed_origins of ${entry.id}`)),
    }));
  for (const pair of (env.PARTNER_API_KEYS ?? "").split(",").filter(Boolean)) {
    const [id, key] = pair.split(":");
    if (!id || !key) fail("PARTNER_API_KEYS must be partnerId:key pairs separated by commas");
    // Named by its partner, never shown: the message reaches logs.
    if (environmentOfKey(key) !== environment)
      fail(`PARTNER_API_KEYS: the key of ${id} is not a ${environment} key (${KEY_PREFIX[environment]}...)`);
    partners.push({ partner: { id, name: id }, keys: [key] });
  }
  for (const entry of partners)
    entry.embedOrigins = [...new Set([...(entry.embedOrigins ?? []), ...(embedOrigins.get(entry.partner.id) ?? [])])];
  const webhookLeaseSetting = env.PARTNER_API_WEBHOOK_LEASE_MS;
  const webhookLeaseMs = webhookLeaseSetting === undefined || webhookLeaseSetting === "" ? undefined : Number(webhookLeaseSetting);
  if (webhookLeaseMs !== undefined && !(Number.isInteger(webhookLeaseMs) && webhookLeaseMs >= 1000))
    fail(`PARTNER_API_WEBHOOK_LEASE_MS must be a whole number of milliseconds, at least 1000 (got ${webhookLeaseSetting})`);
  const rateLimitScale = Number(env.PARTNER_API_RATE_LIMIT_SCALE ?? 1);
  if (!(rateLimitScale > 0) || !Number.isFinite(rateLimitScale))
    fail(`PARTNER_API_RATE_LIMIT_SCALE must be a positive number (got ${env.PARTNER_API_RATE_LIMIT_SCALE})`);
  const host = env.HOST ?? "127.0.0.1";
  const embedPort = parsePort("EMBED_PORT", env.EMBED_PORT, DEFAULT_EMBED_PORT);
  const dashboardPort = parsePort("DASHBOARD_PORT", env.DASHBOARD_PORT, DEFAULT_DASHBOARD_PORT);
  if (env.PARTNER_API_DASHBOARD_URL !== undefined && !URL.canParse(env.PARTNER_API_DASHBOARD_URL))
    fail(`PARTNER_API_DASHBOARD_URL must be a URL such as https://dashboard.example.com (got ${env.PARTNER_API_DASHBOARD_URL})`);
  const dashboardUrl = (env.PARTNER_API_DASHBOARD_URL ?? `http://${urlHost(host)}:${dashboardPort ?? DEFAULT_DASHBOARD_PORT}`).replace(
    /\/$/,
    "",
  );
  return {
    port,
    host,
    embedPort,
    demoHostPort: parsePort("DEMO_HOST_PORT", env.DEMO_HOST_PORT, 3002),
    dashboardPort,
    dashboardUrl,
    embedOrigins,
    demo: parseDemo(env.PARTNER_API_DEMO),
    dashboardTrustProxy: parseTrustProxy(env.PARTNER_API_TRUST_PROXY),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    storage: parseStorage(env),
    app: {
      environment,
      variants: parseVariants(env.PARTNER_API_VARIANTS),
      embedBaseUrl: env.PARTNER_API_EMBED_URL ?? defaultEmbedUrl(host, embedPort),
      // The API names the dashboard where one is served: this process's, or the one PARTNER_API_DASHBOARD_URL names.
      dashboardUrl: dashboardPort !== null || env.PARTNER_API_DASHBOARD_URL !== undefined ? dashboardUrl : undefined,
      partners,
      partnersFile: partnersFilePath,
      rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, rateLimitScale),
      webhookLeaseMs,
      validateResponses: parseValidateResponses(env.PARTNER_API_VALIDATE_RESPONSES),
    },
  };
}
