/**
 * `npm run spec:diff [-- BASE_REF]`: the breaking-change gate. Compares every published document
 * with the last release's (releases/<version>/openapi/), or with its version at a git revision
 * when one is named, and fails on a break: what Redocly rates major (a removed operation or field,
 * a new required input, a narrower type or bound) and releases/accepted-breaks.yml does not accept.
 * Against the release, an accepted break that no longer occurs fails too (the list says only what
 * is true). A base it cannot read is an error, never "nothing to compare". docs/releases.md says
 * what counts as breaking beyond what a diff of documents shows.
 * Exit: 0 compatible, 1 a break, 2 a base it cannot read or a list it cannot use.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { BUNDLE_PATHS, SANDBOX_BUNDLE_PATHS } from "../generated/deployment.js";
import { judgeBreaks, readAcceptedBreaks, type AcceptedBreak } from "./lib/accepted-breaks.js";
import { lastRelease, RELEASES_DIRECTORY } from "./lib/release-kits.js";
import { diffDocuments, majorChanges } from "./lib/spec-diff.js";

const DOCUMENTS = [...Object.values(BUNDLE_PATHS), ...Object.values(SANDBOX_BUNDLE_PATHS)];

function fail(message: string): never {
  console.error(`spec:diff: ${message}`);
  process.exit(2);
}

/** The base documents of a git revision, written to a scratch directory; fails when the revision is not one. */
function documentsAt(ref: string, directory: string): Map<string, string | null> {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { stdio: "ignore" });
  } catch {
    fail(`${ref} is not a revision of this repository: nothing to compare with (name a tag, a branch or a commit)`);
  }
  return new Map(
    DOCUMENTS.map((path) => {
      try {
        const text = execFileSync("git", ["show", `${ref}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
        const copy = join(directory, basename(path));
        writeFileSync(copy, text);
        return [path, copy];
      } catch {
        return [path, null];
      }
    }),
  );
}

const ref = process.argv[2];
const release = ref ? null : lastRelease();
let list: AcceptedBreak[];
try {
  list = readAcceptedBreaks();
} catch (error) {
  fail((error as Error).message);
}
const workDir = mkdtempSync(join(tmpdir(), "spec-diff-base-"));
try {
  const bases = release
    ? new Map(DOCUMENTS.map((path) => [path, join(RELEASES_DIRECTORY, release, "openapi", basename(path))]))
    : documentsAt(ref!, workDir);
  console.log(`spec:diff: the published documents against ${release ? `release ${release} (${RELEASES_DIRECTORY}/${release})` : ref}`);
  let breaks = 0;
  const used = new Set<string>();
  for (const path of DOCUMENTS) {
    const base = bases.get(path);
    if (!base) {
      console.log(`${path}: not at ${ref}, a new document`);
      continue;
    }
    const changes = diffDocuments(base, path);
    const judgement = judgeBreaks(majorChanges(changes), list);
    for (const id of judgement.accepted.keys()) used.add(id);
    const count = (impact: string) => changes.filter((change) => change.impact === impact).length;
    const accepted = [...judgement.accepted].map(([id, found]) => `${id} ×${found.length}`).join(", ");
    const verdict = judgement.unaccepted.length ? `BREAKING: ${judgement.unaccepted.length} break(s) not accepted` : "compatible";
    console.log(
      `${path}: ${verdict} (${count("major")} major, ${count("minor")} minor, ${count("patch")} patch${accepted ? `; accepted: ${accepted}` : ""})`,
    );
    for (const change of judgement.unaccepted) console.log(`  ✖ ${change.rule} at ${change.path}\n      ${change.message}`);
    breaks += judgement.unaccepted.length;
  }
  const unused = release ? list.filter((entry) => !used.has(entry.id)) : [];
  for (const entry of unused)
    console.log(`accepted break ${entry.id} occurs in no document: remove it from releases/accepted-breaks.yml (or fix its path)`);
  if (breaks > 0)
    console.log(
      "\nA break of v1: restore compatibility, or accept it in releases/accepted-breaks.yml with its reason and CHANGELOG.md entry (docs/releases.md).",
    );
  process.exitCode = breaks > 0 || unused.length > 0 ? 1 : 0;
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
