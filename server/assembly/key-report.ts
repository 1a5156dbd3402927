/**
 * What `npm start` says about its keys: one line per partner with its keys of each environment and
 * where they come from, and a warning when no key is loaded, in which case every API request is
 * refused (in production nobody can call the server until a key is created).
 */
import type { Environment } from "../../generated/deployment.js";
import type { LoadedPartner } from "../partners/keys/api-keys.js";

export interface KeySources {
  /** The partners file the server follows (PARTNER_API_CONFIG). */
  partnersFile: string;
  /** The demo partner, when this run makes it (server/assembly/demo-partner.ts). */
  demoPartnerId: string | null;
}

const OTHER: Record<Environment, Environment> = { sandbox: "production", production: "sandbox" };
const keys = (count: number, environment: Environment) => `${count} ${environment} key${count === 1 ? "" : "s"}`;

function sourceOf({ partner, source }: LoadedPartner, sources: KeySources): string {
  if (source === "partners file") return `from ${sources.partnersFile}`;
  return partner.id === sources.demoPartnerId ? "made for this run (shown below)" : "from PARTNER_API_KEYS";
}

export function partnerKeyLines(partners: readonly LoadedPartner[], environment: Environment, sources: KeySources): string[] {
  return partners.map((loaded) => {
    const other = loaded.keys[OTHER[environment]];
    const elsewhere =
      other > 0
        ? `; ${keys(other, OTHER[environment])} there ${other === 1 ? "is" : "are"} not accepted by this ${environment} deployment`
        : "";
    return `  partner ${loaded.partner.id} (${loaded.partner.name}): ${keys(loaded.keys[environment], environment)}, ${sourceOf(loaded, sources)}${elsewhere}`;
  });
}

/** The warning when no key of this environment is loaded; null when some is. */
export function noKeyWarning(partners: readonly LoadedPartner[], environment: Environment, sources: KeySources): string | null {
  if (partners.some((loaded) => loaded.keys[environment] > 0)) return null;
  return (
    `warning: no partner key is loaded (PARTNER_API_CONFIG ${sources.partnersFile}, PARTNER_API_KEYS): every API request is refused ` +
    `until a key is created with \`npm run keys -- create --env ${environment} --config ${sources.partnersFile}\`, which counts without a restart`
  );
}
