import { describe, expect, it } from "vitest";
import { loadDocument, operationsOf, pointer, SchemaValidator } from "../support/openapi-document.js";

interface MediaExample {
  where: string;
  schemaPointer: string;
  example: unknown;
}

/** Every media type of every operation (requests and responses, shared responses resolved). */
function mediaTypes(document: Record<string, any>): Array<MediaExample & { hasExample: boolean }> {
  const found: Array<MediaExample & { hasExample: boolean }> = [];
  const visit = (base: string[], content: Record<string, any> | undefined, where: string) => {
    for (const [mediaType, media] of Object.entries<Record<string, any>>(content ?? {})) {
      found.push({
        where: `${where} ${mediaType}`,
        schemaPointer: pointer(...base, "content", mediaType, "schema"),
        example: media.example,
        hasExample: "example" in media,
      });
    }
  };
  for (const { path, method, operation, location } of operationsOf(document)) {
    const name = `${method.toUpperCase()} ${path}`;
    if (operation.requestBody) visit([location, path, method, "requestBody"], operation.requestBody.content, `${name} request`);
    for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
      if (response.$ref) {
        const [, , , responseName] = (response.$ref as string).split("/");
        visit(
          ["components", "responses", responseName!],
          document.components.responses[responseName!].content,
          `${name} ${status} (${responseName})`,
        );
      } else {
        visit([location, path, method, "responses", status], response.content, `${name} ${status}`);
      }
    }
  }
  return found;
}

describe.each(["R", "D", "full"] as const)("examples of the %s document", (kind) => {
  const document = loadDocument(kind);
  const validator = new SchemaValidator(document);
  const media = mediaTypes(document);

  it("has an example on every request body and every response body", () => {
    const missing = media.filter((entry) => !entry.hasExample).map((entry) => entry.where);
    expect(missing).toEqual([]);
  });

  it.each(media.filter((entry) => entry.hasExample).map((entry) => [entry.where, entry] as const))(
    "%s example validates against its schema",
    (_where, entry) => {
      expect(validator.errorsAt(entry.schemaPointer, entry.example)).toBeNull();
    },
  );

  it("has schema-level examples that validate", () => {
    const problems = Object.entries<Record<string, any>>(document.components.schemas)
      .filter(([, schema]) => "example" in schema)
      .map(([name, schema]) => [name, validator.schemaErrors(name, schema.example)] as const)
      .filter(([, errors]) => errors !== null);
    expect(problems).toEqual([]);
  });

  it("has parameter examples that validate", () => {
    const problems = Object.entries<Record<string, any>>(document.components.parameters ?? {})
      .filter(([, parameter]) => "example" in parameter)
      .map(
        ([name, parameter]) => [name, validator.errorsAt(pointer("components", "parameters", name, "schema"), parameter.example)] as const,
      )
      .filter(([, errors]) => errors !== null);
    expect(problems).toEqual([]);
  });
});

describe("the schema validator used by these tests", () => {
  const validator = new SchemaValidator(loadDocument("full"));

  it("refuses an example that breaks its schema, so the checks above can fail", () => {
    expect(validator.schemaErrors("DomainRenewal", { id: "dom_1", name: "example.com" })).toMatch(/required/);
    expect(validator.schemaErrors("Money", "12.9")).toMatch(/pattern/);
    expect(
      validator.schemaErrors("DnsRecordD", {
        id: "rec_1",
        type: "A",
        name: "@",
        content: "203.0.113.1",
        ttl: 300,
        priority: null,
        created_at: "not a time",
        updated_at: "2026-11-22T10:00:00Z",
      }),
    ).toMatch(/date-time/);
  });
});
