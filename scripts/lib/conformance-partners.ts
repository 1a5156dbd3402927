/**
 * The partners a conformance run against the reference server uses: two partners with a key each
 * (the second for the tenancy checks), and a key of the first that is revoked (the kit's
 * `--revoked-key`). PARTNER_API_KEYS cannot express a revoked key, so they go in a partners file
 * (PARTNER_API_CONFIG), written as `npm run keys` writes it: a key revoked there is a key whose hash
 * the file no longer holds, which is how the file is written here.
 */
import { join } from "node:path";
import { generateApiKey, hashApiKey } from "../../server/partners/keys/api-keys.js";
import { type PartnerEntry, writePartnersFile } from "../../server/partners/keys/partners-file.js";

export interface ConformancePartners {
  key: string;
  secondKey: string;
  revokedKey: string;
  /** The kit's key options for these partners. */
  keyOptions: string[];
  /** The partners file, for PARTNER_API_CONFIG. */
  file: string;
  /** Takes the revoked key out of the file, as `npm run keys -- revoke` does (when it was written in: `revokeLater`). */
  revoke(): void;
}

const hex = (key: string) => hashApiKey(key).toString("hex");

/**
 * Writes the partners file into `directory`: fresh keys every time, so two runs never share one.
 * `revokeLater`: the revoked key is in the file until `revoke()`, so a server that started with it
 * accepted it once and must stop accepting it while it runs.
 */
export function writeConformancePartners(directory: string, options: { revokeLater?: boolean } = {}): ConformancePartners {
  const [key, secondKey, revokedKey] = [generateApiKey("sandbox"), generateApiKey("sandbox"), generateApiKey("sandbox")];
  const file = join(directory, "partners.json");
  const write = (withRevokedKey: boolean) => {
    const entries: PartnerEntry[] = [
      {
        id: "conformance_a",
        name: "Conformance A",
        environment: "sandbox",
        key_hashes: [key, ...(withRevokedKey ? [revokedKey] : [])].map(hex),
      },
      { id: "conformance_b", name: "Conformance B", environment: "sandbox", key_hashes: [hex(secondKey)] },
    ];
    writePartnersFile(file, { partners: entries });
  };
  write(options.revokeLater ?? false);
  return {
    file,
    key,
    secondKey,
    revokedKey,
    keyOptions: ["--api-key", key, "--second-key", secondKey, "--revoked-key", revokedKey],
    revoke: () => write(false),
  };
}
