/** The breaking-change gate: additive changes pass, removals and narrower inputs are breaks unless the reviewed list accepts them. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { BUNDLE_PATHS } from "../../generated/deployment.js";
import { judgeBreaks, readAcceptedBreaks, type AcceptedBreak } from "../../scripts/lib/accepted-breaks.js";
import { diffDocuments, majorChanges, resolvePointer, withNamedAllOfMembers } from "../../scripts/lib/spec-diff.js";

const dir = mkdtempSync(join(tmpdir(), "spec-diff-test-"));
const base = join(dir, "base.yml");
writeFileSync(base, readFileSync(BUNDLE_PATHS.D, "utf8"));

function revised(change: (document: any) => void): string {
  const document = parse(readFileSync(base, "utf8"));
  change(document);
  const path = join(dir, `revision-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(path, stringify(document));
  return path;
}

const majors = (change: (document: any) => void) => majorChanges(diffDocuments(base, revised(change)));
const usersOffset = (d: any) => d.paths["/api/v1/users"].get.parameters.find((p: any) => p.name === "offset");

describe("spec:diff's comparison", () => {
  // One revision holds several changes, each found by its own path: every run of Redocly costs seconds.
  it("finds each break of a revision: a removed operation, a new required input, a removed answer field, a lower bound, a format on an unbounded input", () => {
    const found = majors((d) => {
      delete d.paths["/api/v1/domains/tlds"];
      d.components.schemas.DomainRenew.required.push("reason");
      d.components.schemas.DomainRenew.properties.reason = { type: "string" };
      delete d.components.schemas.Availability.properties.premium;
      d.components.schemas.Availability.required = d.components.schemas.Availability.required.filter((name: string) => name !== "premium");
      usersOffset(d).schema.maximum = 10;
      d.components.schemas.WebhookEndpointCreate.properties.description = { type: "string", format: "uuid" };
    });
    const report = found.map((change) => `${change.path} ${change.message}`).join("\n");
    for (const place of ["~1api~1v1~1domains~1tlds", "`reason`", "premium", "~1api~1v1~1users/get/parameters", "properties/description"])
      expect(report, `a break at ${place}`).toContain(place);
  });

  it("passes additions and what admits the same values: a new optional field, a new property in an inline allOf member, an int32 format within the bounds", () => {
    const changes = diffDocuments(
      base,
      revised((d) => {
        d.components.schemas.Tld.properties.note = { type: "string" };
        d.components.schemas.DomainEvent.allOf[1].properties.note = { type: "string" };
        d.components.schemas.DomainRenew.properties.copies = { type: "integer", minimum: 1, maximum: 10, format: "int32" };
      }),
    );
    expect(majorChanges(changes)).toEqual([]);
  });

  it("rates an integer format within the bounds the input already had compatible, saying why; one without bounds is a break", () => {
    const withCopies = revised((d) => {
      d.components.schemas.DomainRenew.properties.copies = { type: "integer", minimum: 1, maximum: 10 };
      d.components.schemas.DomainRenew.properties.count = { type: "integer" };
    });
    const document = parse(readFileSync(withCopies, "utf8"));
    document.components.schemas.DomainRenew.properties.copies.format = "int32";
    document.components.schemas.DomainRenew.properties.count.format = "int32";
    const withFormats = join(dir, "formats.yml");
    writeFileSync(withFormats, stringify(document));
    const changes = diffDocuments(withCopies, withFormats);
    expect(changes.find((change) => change.compatible)?.compatible).toMatch(/admits every integer from 1 to 10/);
    expect(majorChanges(changes).map((change) => change.path)).toEqual([expect.stringContaining("properties/count")]);
  });

  it("rates a new event type compatible, as the versioning policy says, and a new value of another answered enum a break", () => {
    const changes = diffDocuments(
      base,
      revised((d) => {
        d["x-webhooks"]["domain.example_happened"] = d["x-webhooks"]["domain.updated"];
        for (const name of ["EventType", "WebhookEventTypeSubscribable"]) d.components.schemas[name].enum.push("domain.example_happened");
        d.components.schemas.DomainStatus.enum.push("archived");
      }),
    );
    expect(changes.filter((change) => change.compatible).map((change) => change.compatible)).toContainEqual(
      expect.stringMatching(/event types, which the versioning policy names additive/),
    );
    const breaks = majorChanges(changes);
    expect(breaks.length).toBeGreaterThan(0);
    expect(breaks.filter((change) => !/gained values: 'archived'/.test(change.message))).toEqual([]);
  });

  it("reads a parameter whose bound, default and description all changed as modified, not removed and added", () => {
    const found = majors((d) => {
      Object.assign(usersOffset(d), { description: "Skips users; another text altogether." });
      Object.assign(usersOffset(d).schema, { maximum: 1000, default: 5 });
    });
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((change) => change.rule)).not.toContain("parameter-removed");
  });

  it("passes an unchanged document without running Redocly", () => {
    const copy = join(dir, "unchanged.yml");
    writeFileSync(copy, readFileSync(base, "utf8"));
    expect(diffDocuments(base, copy)).toEqual([]);
  });
});

describe("the documents it compares", () => {
  const document: Parameters<typeof withNamedAllOfMembers>[0] = {
    paths: {
      "/a": { get: { parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }, { $ref: "#/components/parameters/P" }] } },
    },
    components: {
      parameters: { P: { name: "p", in: "query" } },
      schemas: { E: { allOf: [{ $ref: "#/components/schemas/B" }, { type: "object" }] }, B: {} },
    },
  };

  it("names inline parameters and allOf members, leaving references as they are", () => {
    const named = withNamedAllOfMembers(document) as any;
    expect(named.paths["/a"].get.parameters).toEqual([
      { $ref: "#/components/parameters/get.a.query.limit" },
      { $ref: "#/components/parameters/P" },
    ]);
    expect(named.components.schemas.E.allOf).toEqual([{ $ref: "#/components/schemas/B" }, { $ref: "#/components/schemas/E.allOf.1" }]);
    expect(named.components.schemas["E.allOf.1"]).toEqual({ type: "object" });
    // The document given is left as it was.
    expect((document as any).paths["/a"].get.parameters[0]).toHaveProperty("name", "limit");
  });

  it("resolves a report path through references", () => {
    const named = withNamedAllOfMembers(document) as any;
    expect(resolvePointer(named, "#/paths/~1a/get/parameters/0/schema")).toEqual({ type: "integer" });
    expect(resolvePointer(named, "#/components/schemas/E/allOf/1")).toEqual({ type: "object" });
    expect(resolvePointer(named, "#/paths/~1b")).toBeUndefined();
  });
});

describe("the reviewed list of accepted breaks", () => {
  const entry: AcceptedBreak = {
    id: "offset",
    rule: "schema-constraint-changed",
    path: /users\/get\/parameters/,
    message: /Upper bound/,
    reason: "r",
    changelog: "c",
  };
  const change = (path: string, message = "Upper bound was set to '<= 5'.", rule = "schema-constraint-changed") => ({
    path,
    message,
    rule,
    kind: "modified",
    impact: "major" as const,
  });

  it("accepts only what matches an entry's rule, path and message", () => {
    const accepted = change("#/paths/~1api~1v1~1users/get/parameters/1/schema");
    const otherPath = change("#/paths/~1api~1v1~1events/get/parameters/1/schema");
    const otherRule = change("#/paths/~1api~1v1~1users/get/parameters/1/schema", "Upper bound was set", "parameter-removed");
    const judgement = judgeBreaks([accepted, otherPath, otherRule], [entry]);
    expect(judgement.unaccepted).toEqual([otherPath, otherRule]);
    expect([...judgement.accepted]).toEqual([["offset", [accepted]]]);
  });

  it("refuses a list whose entry lacks a reason or whose changelog entry is not in the changelog", () => {
    const list = join(dir, "accepted.yml");
    const changelog = join(dir, "CHANGELOG.md");
    writeFileSync(changelog, "# Changelog\n- **`offset` is bounded**\n");
    const whole = { id: "a", rule: "r", path: "p", message: "m", reason: "why", changelog: "**`offset` is bounded**" };
    writeFileSync(list, stringify([whole]));
    expect(readAcceptedBreaks(list, changelog).map((read) => read.id)).toEqual(["a"]);
    writeFileSync(list, stringify([{ ...whole, reason: "" }]));
    expect(() => readAcceptedBreaks(list, changelog)).toThrow(/entry 1 has no reason/);
    writeFileSync(list, stringify([{ ...whole, changelog: "not there" }]));
    expect(() => readAcceptedBreaks(list, changelog)).toThrow(/its changelog entry is not in/);
  });

  it("is whole, and each of its entries is in CHANGELOG.md", () => {
    expect(readAcceptedBreaks().length).toBeGreaterThan(0);
  });
});

describe("npm run spec:diff", () => {
  it("fails with exit 2 on a base it cannot read, never comparing with nothing", () => {
    const result = spawnSync("node_modules/.bin/tsx", ["scripts/spec-diff.ts", "nosuchref"], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("nosuchref is not a revision of this repository");
  });
});
