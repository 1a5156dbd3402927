import { transform } from "esbuild";
import { describe, expect, it } from "vitest";
import { decodeColumns, decodeComputed, decodeDomainsRow, decodeUsersRow } from "../../generated/db-rows.js";
import { columnType, renderDbRows, type SchemaColumn } from "../../scripts/lib/db-rows.js";

const column = (table: string, name: string, udtName: string, nullable = false): SchemaColumn => ({
  table,
  column: name,
  dataType: udtName.startsWith("_") ? "ARRAY" : udtName,
  udtName,
  nullable,
});

/** A schema of two tables, one column of each type the store uses. */
const TINY_SCHEMA = [
  column("notes", "id", "text"),
  column("notes", "body", "text", true),
  column("notes", "size", "int8"),
  column("notes", "pinned", "bool"),
  column("notes", "written_at", "timestamptz"),
  column("notes", "tags", "_text", true),
  column("notes", "extra", "jsonb"),
  column("tallies", "key", "text"),
  column("tallies", "counts", "_int4"),
  column("tallies", "blob", "bytea", true),
];

/** The module renderDbRows writes, compiled and loaded. */
async function loadRendered(columns: readonly SchemaColumn[]): Promise<Record<string, (...args: unknown[]) => unknown>> {
  const { code } = await transform(renderDbRows(columns, "// test\n"), { loader: "ts", format: "esm" });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

const NOTE = { id: "n1", body: null, size: 3, pinned: false, written_at: new Date(0), tags: ["a"], extra: { any: "thing" } };

describe("scripts/lib/db-rows.ts", () => {
  it("types each column as the SQL client returns it, null where the column allows it", () => {
    const text = renderDbRows(TINY_SCHEMA, "// test\n");
    expect(text).toContain(
      [
        "export interface NotesRow {",
        "  id: string; // text NOT NULL",
        "  body: string | null; // text",
        "  size: number; // int8 NOT NULL",
        "  pinned: boolean; // bool NOT NULL",
        "  written_at: Date; // timestamptz NOT NULL",
        "  tags: string[] | null; // text[]",
        "  extra: unknown; // jsonb NOT NULL",
        "}",
      ].join("\n"),
    );
    expect(text).toContain("export const decodeTalliesRow = ");
    expect(text).toContain("  notes: NotesRow;\n  tallies: TalliesRow;");
  });

  it("leaves a nullable jsonb column unknown: JSON's null is a value too", () => {
    expect(columnType(column("t", "c", "jsonb", true))).toBe("unknown");
  });

  it("refuses a SQL type it has no rule for, naming the column", () => {
    expect(() => columnType(column("prices", "amount", "numeric"))).toThrow(/^prices\.amount: no JavaScript type for the SQL type numeric/);
  });

  it("renders the same text for the same schema", () => {
    expect(renderDbRows(TINY_SCHEMA, "")).toBe(renderDbRows([...TINY_SCHEMA], ""));
  });

  it("renders decoders that accept a row of the table and refuse one missing a column or holding another type", async () => {
    const rendered = await loadRendered(TINY_SCHEMA);
    expect(rendered.decodeNotesRow!(NOTE)).toBe(NOTE);
    expect(rendered.decodeTalliesRow!({ key: "k", counts: [1, 2], blob: Buffer.from("x") })).toBeTruthy();
    const { pinned: _, ...withoutPinned } = NOTE;
    expect(() => rendered.decodeNotesRow!(withoutPinned)).toThrow(/^notes\.pinned: missing from the row, which has id, body, /);
    expect(() => rendered.decodeNotesRow!({ ...NOTE, size: "3" })).toThrow("notes.size: expected number, found a value of type string");
    expect(() => rendered.decodeNotesRow!({ ...NOTE, tags: ["a", 1] })).toThrow("notes.tags: expected string[] | null, found an array");
    expect(() => rendered.decodeTalliesRow!({ key: "k", counts: [1], blob: "x" })).toThrow(
      "tallies.blob: expected Uint8Array | null, found a value of type string",
    );
  });
});

describe("generated/db-rows.ts", () => {
  const user = {
    partner_id: "p",
    user_identifier: "u",
    email: null,
    created_at: new Date(0),
    last_login: new Date(0),
    updated_at: new Date(0),
    total_spent: 0,
    domain_count: 0,
  };

  it("decodes a users row as it is, without copying it", () => {
    expect(decodeUsersRow(user)).toBe(user);
  });

  it("refuses a row missing a column, naming the table and the column", () => {
    const { last_login: _, ...row } = user;
    expect(() => decodeUsersRow(row)).toThrow(/^users\.last_login: missing from the row/);
  });

  it("refuses a column of another type, naming what it found and never the value", () => {
    expect(() => decodeUsersRow({ ...user, created_at: "1970-01-01T00:00:00Z" })).toThrow(
      "users.created_at: expected Date, found a value of type string",
    );
    expect(() => decodeUsersRow({ ...user, total_spent: 10n })).toThrow("users.total_spent: expected number, found a value of type bigint");
    expect(() => decodeDomainsRow({ nameservers: "ns1" })).toThrow(/^domains\.id: missing/);
  });

  it("decodes the columns a query selects, and only those", () => {
    expect(decodeColumns({ partner_id: "p" }, "users", ["partner_id"]).partner_id).toBe("p");
    expect(() => decodeColumns({ partner_id: null }, "users", ["partner_id"])).toThrow("users.partner_id: expected string, found null");
  });

  it("does not compile a column the table lacks, and refuses it at run time", () => {
    // @ts-expect-error users has no column named nickname
    expect(() => decodeColumns({ nickname: "x" }, "users", ["nickname"])).toThrow("users.nickname: no such column in the schema");
  });

  it("decodes computed columns against the types given, named by the source", () => {
    expect(decodeComputed({ total: 3 }, { total: "number" }).total).toBe(3);
    expect(() => decodeComputed({ total: "3" }, { total: "number" })).toThrow("query.total: expected number, found a value of type string");
    expect(() => decodeComputed({}, { at: "string" }, "transfers.history[]")).toThrow(/^transfers\.history\[\]\.at: missing/);
  });
});
