/**
 * `npm run lint:owasp` passes only while its ruleset really loads: it is fed a small document with
 * known findings, through the same ruleset, and must report them. A ruleset that stopped loading
 * (a renamed package, a broken extends) would otherwise pass every document.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SPECTRAL = resolve("node_modules/.bin/spectral");
const RULESET = resolve(".spectral.yaml");

/** One operation whose request body has an unbounded string, whose answer has no rate-limit headers and no 401. */
const DOCUMENT = `openapi: 3.0.3
info: {title: Known findings, version: 1.0.0, description: d, contact: {name: c}}
servers: [{url: 'https://api.example.com', x-internal: false}]
tags: [{name: Notes, description: d}]
security: [{bearerAuth: []}]
paths:
  /notes:
    post:
      operationId: createNote
      summary: s
      description: d
      tags: [Notes]
      requestBody:
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties:
                text: {type: string, format: byte}
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                properties:
                  note: {type: string}
        '429': {description: Too many.}
        '500': {description: Failed.}
components:
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
`;

interface Finding {
  code: string;
  path: string[];
}

let directory: string;
let findings: Finding[];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "owasp-lint-"));
  const document = join(directory, "known-findings.yml");
  writeFileSync(document, DOCUMENT);
  // Spectral exits 1 when it finds something, which is what this document is for.
  const output = await promisify(execFile)(SPECTRAL, ["lint", "--ruleset", RULESET, "--format", "json", "--quiet", document]).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
  );
  findings = JSON.parse(output.stdout) as Finding[];
}, 60_000);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const codes = () => findings.map((finding) => finding.code);

describe("npm run lint:owasp's ruleset (.spectral.yaml)", () => {
  it("reports the OWASP rules it takes as they are: no 401 response", () => {
    expect(codes()).toContain("owasp:api8:2023-define-error-responses-401");
  });

  it("reports a request string without maxLength (its copy of owasp:api4:2023-string-limit)", () => {
    const found = findings.filter((finding) => finding.code === "partner-api:input-string-limit");
    expect(found.map((finding) => finding.path.join("/"))).toEqual([
      "paths//notes/post/requestBody/content/application/json/schema/properties/text",
    ]);
  });

  it("reports a success response without rate-limit headers (its copy of owasp:api4:2023-rate-limit)", () => {
    expect(codes()).toContain("partner-api:rate-limit-headers");
  });

  it("does not take over the OWASP rules it replaces, which misfire on responses", () => {
    expect(codes()).not.toContain("owasp:api4:2023-string-limit");
    expect(codes()).not.toContain("owasp:api4:2023-rate-limit");
  });
});
