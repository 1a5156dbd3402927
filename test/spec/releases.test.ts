/** The releases: what the gate and the release kits compare with is whole, and the version being made is named in the changelog. */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../../generated/deployment.js";
import { lastRelease, RELEASES_DIRECTORY, releasedVersions } from "../../scripts/lib/release-kits.js";
import { readSourceDocument } from "../../scripts/lib/source-document.js";

const version = (readSourceDocument() as { info: { version: string } }).info.version;
const parts = (text: string) => text.split(".").map(Number);

describe("releases", () => {
  it("are ordered by version, not by name", () => {
    expect(releasedVersions()).toEqual(
      [...releasedVersions()].sort((a, b) => {
        const [x, y] = [parts(a), parts(b)];
        return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
      }),
    );
  });

  it("each keep every published document, of their own version, and the conformance kit they shipped", () => {
    for (const release of releasedVersions()) {
      for (const path of [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)]) {
        const document = parse(readFileSync(join(RELEASES_DIRECTORY, release, "openapi", basename(path)), "utf8"));
        expect({ path, version: document.info.version }).toEqual({ path, version: release });
      }
      expect(existsSync(join(RELEASES_DIRECTORY, release, "conformance-kit", "vitest.config.ts"))).toBe(true);
    }
  });

  it("the spec's info.version is a version after the last release, with its section in CHANGELOG.md", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const [now, last] = [parts(version), parts(lastRelease())];
    expect(now[0]! - last[0]! || now[1]! - last[1]! || now[2]! - last[2]!).toBeGreaterThan(0);
    expect(readFileSync("CHANGELOG.md", "utf8")).toMatch(new RegExp(`^## ${version.replaceAll(".", "\\.")}( |$)`, "m"));
  });
});
