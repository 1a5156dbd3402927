/**
 * The conformance kits of earlier releases, kept as they shipped in releases/<version>/conformance-kit/
 * with the published documents of their release beside them (releases/README.md): run against
 * today's server, each shows that a partner's tests written against that release still pass.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnOwned } from "./owned-processes.js";

export const RELEASES_DIRECTORY = "releases";

/** A release is named by its version, MAJOR.MINOR.PATCH (no pre-releases: only what partners got is kept). */
const RELEASE_VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const versionParts = (version: string) => RELEASE_VERSION.exec(version)!.slice(1).map(Number);
const byVersion = (a: string, b: string) => {
  const [x, y] = [versionParts(a), versionParts(b)];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
};

/** The released versions, oldest first: the directories of releases/ named by a version. */
export function releasedVersions(directory = RELEASES_DIRECTORY): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && RELEASE_VERSION.test(entry.name))
    .map((entry) => entry.name)
    .sort(byVersion);
}

/** The last release: what the breaking-change gate compares with, and whose kit runs against today's server. */
export function lastRelease(directory = RELEASES_DIRECTORY): string {
  const versions = releasedVersions(directory);
  if (versions.length === 0) throw new Error(`${directory}/ holds no release`);
  return versions.at(-1)!;
}

export interface ReleaseKitTarget {
  baseUrl: string;
  apiKey: string;
  secondKey: string;
  /** Where its JUnit XML goes. */
  junit: string;
}

/** Runs the kit of `version` against a target with its own runner (vitest, its contract config); resolves whether it passed. */
export function runReleaseKit(version: string, target: ReleaseKitTarget): Promise<boolean> {
  const child = spawnOwned(
    "node_modules/.bin/vitest",
    [
      "run",
      "--config",
      join(RELEASES_DIRECTORY, version, "conformance-kit", "vitest.config.ts"),
      "--reporter=dot",
      "--reporter=junit",
      // The kit's runner works in its own folder: the report goes where the caller means, not under it.
      `--outputFile.junit=${resolve(target.junit)}`,
    ],
    {
      stdio: "inherit",
      // The environment the kit of 1.0.0 reads (releases/1.0.0/conformance-kit/support/target.ts).
      env: {
        ...process.env,
        CONTRACT_BASE_URL: target.baseUrl,
        CONTRACT_API_KEY: target.apiKey,
        CONTRACT_SECOND_KEY: target.secondKey,
        CONTRACT_VARIANT: "both",
        CONTRACT_STATELESS: "0",
        CONTRACT_THROUGH_PRISM_PROXY: "0",
      },
    },
  );
  return new Promise((resolve) => child.on("exit", (code) => resolve(code === 0)));
}
