/**
 * One database per environment. A database is stamped with the environment of the deployment it
 * was migrated for; a deployment of the other environment is refused, by `npm run db:migrate` and
 * at start-up, before it reads or writes anything. Scoping every row and query by environment
 * instead would leave each new query one forgotten condition away from mixing sandbox and
 * production; a database of its own makes that impossible by construction.
 */
import { decodeColumns, decodeComputed } from "../../../generated/db-rows.js";
import { ENVIRONMENTS, type Environment } from "../../../generated/deployment.js";
import { ENVIRONMENT_NAMES, oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

/** The database is not this deployment's environment's, or holds both: the message is one line saying what to do. */
export class EnvironmentMismatchError extends Error {}

/**
 * The tables whose rows name their environment. A database migrated before the stamp existed may
 * hold both environments' rows in them: the one sign left that two deployments shared it.
 */
const ENVIRONMENT_TABLES = ["api_keys", "request_log", "idempotency_keys", "framing_origins", "embed_branding"] as const;

const otherThan = (environment: Environment): Environment => ENVIRONMENTS.find((other) => other !== environment)!;

/** The environment the database was stamped with, or null when it has none yet. */
export async function stampedEnvironment(sql: Sql): Promise<Environment | null> {
  const [row] = await sql.query("SELECT environment FROM deployment_environment");
  if (!row) return null;
  return oneOf(
    decodeColumns(row, "deployment_environment", ["environment"]).environment,
    ENVIRONMENT_NAMES,
    "deployment_environment.environment",
  );
}

/** One line saying why a deployment of `environment` cannot use a database stamped `stamped`, or null. */
export function environmentProblem(stamped: Environment | null, environment: Environment): string | null {
  if (stamped === environment) return null;
  if (stamped === null)
    return `the database has no environment yet: run npm run db:migrate with PARTNER_API_ENVIRONMENT=${environment} first`;
  return `the database is the ${stamped} deployment's, not ${environment}'s (PARTNER_API_ENVIRONMENT): each environment needs a database of its own`;
}

export interface StampOptions {
  /**
   * A database that held both environments is kept for `environment`: the other environment's keys,
   * request log, idempotency keys and embedding settings are deleted. Its users, domains and records
   * carry no environment and stay: the operator decided they are this environment's.
   */
  forgetOtherEnvironment?: boolean;
}

/**
 * Stamps the database for `environment` inside the migration's transaction (so a refusal leaves the
 * schema as it was). Refuses a database stamped for the other environment, and an unstamped one
 * holding rows of the other environment unless told to forget them.
 */
export async function stampEnvironment(tx: Sql, environment: Environment, { forgetOtherEnvironment = false }: StampOptions = {}) {
  const stamped = await stampedEnvironment(tx);
  if (stamped !== null) {
    const problem = environmentProblem(stamped, environment);
    if (problem) throw new EnvironmentMismatchError(problem);
    return;
  }
  const other = otherThan(environment);
  const holding: string[] = [];
  for (const table of ENVIRONMENT_TABLES) {
    const [row] = await tx.query(`SELECT EXISTS (SELECT 1 FROM ${table} WHERE environment = $1) AS found`, [other]);
    if (decodeComputed(row!, { found: "boolean" }).found) holding.push(table);
  }
  if (holding.length > 0) {
    if (!forgetOtherEnvironment)
      throw new EnvironmentMismatchError(
        `the database holds ${other} data (${holding.join(", ")}) besides ${environment} data: each environment needs a database of its own. Keep this one for ${environment} with npm run db:migrate -- --forget-other-environment (deletes the ${other} keys, request log, idempotency keys and embedding settings) and give the ${other} deployment a new database (docs/persistence.md)`,
      );
    for (const table of holding) await tx.query(`DELETE FROM ${table} WHERE environment = $1`, [other]);
  }
  await tx.query("INSERT INTO deployment_environment (environment) VALUES ($1)", [environment]);
}
