/**
 * Every exported zone loads in BIND: `named-checkzone` (Debian's bind9-utils), a checker nobody
 * here wrote, with integrity checks of in-zone targets and host-name checks as errors. Runs where
 * the binary is installed; CI sets REQUIRE_NAMED_CHECKZONE=1 so that a missing binary fails.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scaled } from "../../../../scripts/lib/deadlines.js";
import { writeZoneFile } from "../../../../server/domain/zone-files/zone-file.js";
import { EXPORT_OPTIONS, stored, ZONE_STORES, type ZoneStore } from "./support/zone-stores.js";

const CHECKER = ["/usr/bin/named-checkzone", "/usr/sbin/named-checkzone"].find((path) => existsSync(path));
const REQUIRED = process.env.REQUIRE_NAMED_CHECKZONE === "1";

/** Stores only this test needs: text whose bytes outgrow the service's character count. */
const MORE_STORES: readonly ZoneStore[] = [
  {
    label: "TXT strings longer in bytes than in characters",
    domain: "example.net",
    records: stored("example.net", [
      { type: "TXT", content: "ü".repeat(255) },
      { type: "TXT", name: "mixed", content: `"${"€".repeat(100)}" "${"a".repeat(255)}"` },
      { type: "TXT", name: "controls", content: "bell\u0007 nul-free \u001b escape" },
    ]),
  },
];

const directory = mkdtempSync(join(tmpdir(), "zone-checkzone-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The checker's exit code and output; no shell, and a deadline in case it hangs. */
function checkZone(checker: string, domain: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(checker, ["-i", "local", "-k", "fail", domain, file], { timeout: scaled(15_000) }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe("named-checkzone on exported zones", () => {
  it.runIf(REQUIRED)("is installed where REQUIRE_NAMED_CHECKZONE=1", () => {
    expect(CHECKER, "named-checkzone is in /usr/bin or /usr/sbin (apt-get install bind9-utils)").toBeDefined();
  });

  it.skipIf(CHECKER === undefined).each([...ZONE_STORES, ...MORE_STORES])("loads $label", async ({ label, domain, records }) => {
    const file = join(directory, `${label.replace(/\W+/g, "-")}.zone`);
    writeFileSync(file, writeZoneFile(domain, records, EXPORT_OPTIONS));
    const { code, output } = await checkZone(CHECKER!, domain, file);
    expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/^zone \S+\/IN: loaded serial 2026112601\nOK\n$/) });
  });
});
