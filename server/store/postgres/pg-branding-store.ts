/** The partners' look on PostgreSQL (migrations/0005_embedded_interface.sql). */
import type { Environment } from "../../../generated/deployment.js";
import { logoVersion, NO_BRANDING, type Branding, type BrandingStore, type Logo } from "../../partners/branding/branding-store.js";
import { decodeColumns } from "../../../generated/db-rows.js";
import { LOGO_TYPES, oneOf } from "./column-values.js";
import type { Sql } from "./sql-client.js";

export class PgBrandingStore implements BrandingStore {
  constructor(private readonly sql: Sql) {}

  async brandingOf(partnerId: string, environment: Environment): Promise<Branding> {
    // Never the logo's bytes: every page reads this, and only the logo's own address needs them.
    const [found] = await this.sql.query(
      "SELECT accent_colour, logo_type, logo_version FROM embed_branding WHERE partner_id = $1 AND environment = $2",
      [partnerId, environment],
    );
    if (!found) return NO_BRANDING;
    const row = decodeColumns(found, "embed_branding", ["accent_colour", "logo_type", "logo_version"]);
    return {
      accentColour: row.accent_colour,
      logo:
        row.logo_type && row.logo_version
          ? { type: oneOf(row.logo_type, LOGO_TYPES, "embed_branding.logo_type"), version: row.logo_version }
          : null,
    };
  }

  async logoOf(partnerId: string, environment: Environment): Promise<Logo | null> {
    const [found] = await this.sql.query("SELECT logo, logo_type FROM embed_branding WHERE partner_id = $1 AND environment = $2", [
      partnerId,
      environment,
    ]);
    const row = found && decodeColumns(found, "embed_branding", ["logo", "logo_type"]);
    return row?.logo && row.logo_type
      ? { type: oneOf(row.logo_type, LOGO_TYPES, "embed_branding.logo_type"), bytes: Buffer.from(row.logo) }
      : null;
  }

  async setAccentColour(partnerId: string, environment: Environment, colour: string | null, now: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO embed_branding (partner_id, environment, accent_colour, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (partner_id, environment) DO UPDATE SET accent_colour = EXCLUDED.accent_colour, updated_at = EXCLUDED.updated_at`,
      [partnerId, environment, colour, now],
    );
  }

  async setLogo(partnerId: string, environment: Environment, logo: Logo | null, now: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO embed_branding (partner_id, environment, logo, logo_type, logo_version, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (partner_id, environment) DO UPDATE
       SET logo = EXCLUDED.logo, logo_type = EXCLUDED.logo_type, logo_version = EXCLUDED.logo_version, updated_at = EXCLUDED.updated_at`,
      [partnerId, environment, logo?.bytes ?? null, logo?.type ?? null, logo ? logoVersion(logo.bytes) : null, now],
    );
  }
}
