/**
 * The names of the client's tarball in dist/client/, shared by the build that writes it
 * (scripts/lib/client-tarball.ts) and the developer portal that serves it (portal.ts).
 */

/** The name that stays, whatever the version: what a link to "the client" points at. */
export const LATEST_CLIENT_TARBALL = "partner-api-client.tgz";

/** npm's name for the tarball of @partner-api/client at `version`, as `npm pack` writes it. */
export const clientTarballName = (version: string) => `partner-api-client-${version}.tgz`;

/** The version a tarball name of `clientTarballName` carries; undefined for any other name. */
export function clientTarballVersion(file: string): string | undefined {
  return /^partner-api-client-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.tgz$/.exec(file)?.[1];
}
