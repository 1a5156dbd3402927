import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundlePath } from "../../scripts/lib/bundle-paths.js";
import { readSource } from "../../scripts/lib/generated-files.js";
import { variantDocument } from "../../scripts/lib/variant-document.js";

// The published documents as the single-file spec made them, kept while the split lands.
describe("the split spec", () => {
  for (const kind of ["R", "D", "full"] as const) {
    for (const environment of ["production", "sandbox"] as const) {
      it(`derives the same ${kind} ${environment} document as the single file did`, async () => {
        const before = parse(readFileSync(bundlePath(kind, environment).replace("generated/openapi/", "test/spec/fixtures/pre-split/"), "utf8")) as unknown;
        expect(variantDocument(await readSource(), kind, environment)).toEqual(before);
      });
    }
  }
});
