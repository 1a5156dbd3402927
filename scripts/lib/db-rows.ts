/**
 * Renders generated/db-rows.ts: every table of the PostgreSQL store's schema as the SQL client
 * returns its rows, with decoders that check them. The schema is read from PGlite after applying
 * the migration files, not parsed from them: ALTERs, defaults and generated columns are
 * PostgreSQL's to interpret.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const MIGRATIONS_SOURCE = "server/store/postgres/migrations/*.sql";
const MIGRATIONS_DIRECTORY = fileURLToPath(new URL("../../server/store/postgres/migrations/", import.meta.url));

/** One row of information_schema.columns. */
export interface SchemaColumn {
  table: string;
  column: string;
  /** information_schema's data_type; for arrays, "ARRAY". */
  dataType: string;
  /** pg_type's name: `_text` for text[]. */
  udtName: string;
  nullable: boolean;
}

/**
 * The JavaScript value of each SQL type, the same from postgres.js (as the store sets its types) and from PGlite
 * (server/store/postgres/postgres-js-sql.ts: int8 is parsed as a number there; PGlite does so itself).
 * bytea is a Buffer from one and a Uint8Array from the other: both are Uint8Arrays.
 */
const JS_TYPES: Record<string, string> = {
  text: "string",
  varchar: "string",
  int2: "number",
  int4: "number",
  int8: "number",
  float8: "number",
  bool: "boolean",
  timestamptz: "Date",
  _text: "string[]",
  _int2: "number[]",
  _int4: "number[]",
  _int8: "number[]",
  bytea: "Uint8Array",
  jsonb: "unknown",
};

/** The TypeScript type of a column's value; a type no rule covers is refused, so a new one is mapped on purpose. */
export function columnType({ table, column, udtName, nullable }: SchemaColumn): string {
  const type = JS_TYPES[udtName];
  if (type === undefined)
    throw new Error(
      `${table}.${column}: no JavaScript type for the SQL type ${udtName} (add it to scripts/lib/db-rows.ts after checking what both engines return)`,
    );
  // JSON's own null is a value like any other: a jsonb column may hold it whatever its nullability.
  return nullable && type !== "unknown" ? `${type} | null` : type;
}

const COLUMNS_QUERY = `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name COLLATE "C", ordinal_position`;
/**
 * Where schema reads are kept, by what they depend on: starting PGlite is most of a generator run,
 * and check:generated runs in every npm test. A read depends only on the migrations' text, the
 * query and PGlite's version, so a kept read of the same three is the read itself.
 */
const SCHEMA_CACHE_DIRECTORY = fileURLToPath(new URL("../../node_modules/.cache/partner-api-db-rows/", import.meta.url));
const PGLITE_MANIFEST = fileURLToPath(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url));

function schemaKey(migrations: ReadonlyArray<{ file: string; sql: string }>): string {
  const pglite = JSON.parse(readFileSync(PGLITE_MANIFEST, "utf8")) as { version: string };
  const hash = createHash("sha256").update(pglite.version).update(COLUMNS_QUERY);
  for (const { file, sql } of migrations) hash.update(`\0${file}\0${sql}`);
  return hash.digest("hex");
}

/** The migrations applied in name order to an in-memory PGlite (as migrations.ts applies them); its columns. */
export async function readSchemaColumns(): Promise<SchemaColumn[]> {
  const migrations = readdirSync(MIGRATIONS_DIRECTORY)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ file, sql: readFileSync(`${MIGRATIONS_DIRECTORY}${file}`, "utf8") }));
  const cached = join(SCHEMA_CACHE_DIRECTORY, `${schemaKey(migrations)}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as SchemaColumn[];
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create();
  try {
    for (const { sql } of migrations) await db.exec(sql);
    const { rows } = await db.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
      COLUMNS_QUERY,
    );
    const columns = rows.map((row) => ({
      table: row.table_name,
      column: row.column_name,
      dataType: row.data_type,
      udtName: row.udt_name,
      nullable: row.is_nullable === "YES",
    }));
    mkdirSync(SCHEMA_CACHE_DIRECTORY, { recursive: true });
    writeFileSync(cached, JSON.stringify(columns));
    return columns;
  } finally {
    await db.close();
  }
}

/** The SQL type as a migration writes it: `text[]`, not `_text`. */
const sqlType = ({ udtName, nullable }: SchemaColumn) =>
  `${udtName.startsWith("_") ? `${udtName.slice(1)}[]` : udtName}${nullable ? "" : " NOT NULL"}`;

/** `dns_records` -> `DnsRecords`. */
const pascal = (name: string) => name.replace(/(?:^|_)([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

function groupByTable(columns: readonly SchemaColumn[]): Map<string, SchemaColumn[]> {
  const tables = new Map<string, SchemaColumn[]>();
  for (const column of columns) {
    let of = tables.get(column.table);
    if (!of) tables.set(column.table, (of = []));
    of.push(column);
  }
  return tables;
}

/** The module's text: `banner` first, then per table its row interface, column types and decoder. */
export function renderDbRows(columns: readonly SchemaColumn[], banner: string): string {
  const tables = groupByTable(columns);
  const parts: string[] = [banner, PREAMBLE];
  for (const [table, of] of tables) {
    const name = pascal(table);
    parts.push(
      `/** A row of ${table}; each column's SQL type after it. */\nexport interface ${name}Row {\n${of.map((c) => `  ${c.column}: ${columnType(c)}; // ${sqlType(c)}`).join("\n")}\n}\n`,
      `const ${name}Columns = {\n${of.map((c) => `  ${c.column}: "${columnType(c)}",`).join("\n")}\n} as const satisfies Columns<${name}Row>;\n`,
      `/** A row of ${table} with every column; throws naming the column that is missing or holds another type. */\n` +
        `export const decode${name}Row = (row: DbRow): ${name}Row => checked(row, "${table}", ${name}Columns, ${name}Columns);\n`,
    );
  }
  parts.push(
    `/** Every table's row type, by table name. */\nexport interface DbTables {\n${[...tables.keys()].map((table) => `  ${table}: ${pascal(table)}Row;`).join("\n")}\n}\n`,
    `const TABLE_COLUMNS: Readonly<Record<keyof DbTables, Readonly<Record<string, ColumnType>>>> = {\n${[...tables.keys()].map((table) => `  ${table}: ${pascal(table)}Columns,`).join("\n")}\n};\n`,
    POSTAMBLE,
  );
  return parts.join("\n");
}

const PREAMBLE = `/**
 * Every table of the PostgreSQL store as its SQL client returns a row (server/store/postgres/sql-client.ts:
 * postgres.js and PGlite give the same JavaScript types), and decoders that check a row before the
 * store maps it: a column renamed, dropped or of another type fails at the first read, naming it,
 * and where the store reads it, at build. Values are never quoted in errors: some columns hold secrets.
 */

/** A row as the SQL client returns it. */
export type DbRow = Record<string, unknown>;

/** What a column holds, as TypeScript writes its type. */
export interface ColumnValues {
  string: string;
  "string | null": string | null;
  number: number;
  "number | null": number | null;
  boolean: boolean;
  "boolean | null": boolean | null;
  Date: Date;
  "Date | null": Date | null;
  "string[]": string[];
  "string[] | null": string[] | null;
  "number[]": number[];
  "number[] | null": number[] | null;
  Uint8Array: Uint8Array;
  "Uint8Array | null": Uint8Array | null;
  unknown: unknown;
}
export type ColumnType = keyof ColumnValues;

/** The column types of a row type: each column named once, with the type it holds. */
type Columns<Row> = { readonly [C in keyof Row]: { [T in ColumnType]: ColumnValues[T] extends Row[C] ? (Row[C] extends ColumnValues[T] ? T : never) : never }[ColumnType] };
`;

const POSTAMBLE = `const BASE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  boolean: (value) => typeof value === "boolean",
  Date: (value) => value instanceof Date,
  "string[]": (value) => Array.isArray(value) && value.every((item) => typeof item === "string"),
  "number[]": (value) => Array.isArray(value) && value.every((item) => typeof item === "number"),
  Uint8Array: (value) => value instanceof Uint8Array,
  unknown: () => true,
};

const fits = (value: unknown, type: ColumnType) =>
  type.endsWith(" | null") ? value === null || BASE_CHECKS[type.slice(0, -" | null".length)]!(value) : BASE_CHECKS[type]!(value);

/** What a value is, for an error: its kind, never the value itself. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a Date";
  if (value instanceof Uint8Array) return "bytes";
  return \`a value of type \${typeof value}\`;
}

/** \`row\`, once each of \`names\` is present in it with the type \`columns\` gives. */
function checked<R>(row: DbRow, source: string, columns: Readonly<Record<string, ColumnType>>, names: Readonly<Record<string, unknown>> | readonly string[]): R {
  for (const name of Array.isArray(names) ? names : Object.keys(names)) {
    const type = columns[name];
    if (type === undefined) throw new Error(\`\${source}.\${name}: no such column in the schema (generated/db-rows.ts)\`);
    if (!(name in row)) throw new Error(\`\${source}.\${name}: missing from the row, which has \${Object.keys(row).join(", ") || "no columns"}\`);
    if (!fits(row[name], type)) throw new Error(\`\${source}.\${name}: expected \${type}, found \${kindOf(row[name])}\`);
  }
  return row as R;
}

/**
 * The \`columns\` of \`table\` in a row that selects some of its columns, or adds others (a count, a
 * join's): the others are left to decodeComputed.
 */
export const decodeColumns = <T extends keyof DbTables, C extends keyof DbTables[T] & string>(
  row: DbRow,
  table: T,
  columns: readonly C[],
): Pick<DbTables[T], C> => checked(row, table, TABLE_COLUMNS[table], columns);

/**
 * The \`columns\` of \`table\` in an object PostgreSQL made of a row (\`row_to_json\`, \`json_agg\`: a
 * read that takes a row's dependents with it), where timestamps are ISO 8601 text: those become
 * Dates, as the SQL client gives them, then each column is checked as decodeColumns checks it.
 */
export const decodeJsonColumns = <T extends keyof DbTables, C extends keyof DbTables[T] & string>(
  object: DbRow,
  table: T,
  columns: readonly C[],
): Pick<DbTables[T], C> => {
  const types = TABLE_COLUMNS[table];
  const row: DbRow = { ...object };
  for (const name of columns) {
    const value = row[name];
    if (typeof value === "string" && (types[name] === "Date" || types[name] === "Date | null")) row[name] = new Date(value);
  }
  return checked(row, table, types, columns);
};

/**
 * Columns no table defines (a count, a flag, a function's result), each checked against the type
 * given; also the fields of a jsonb column's object. \`source\` names them in an error.
 */
export const decodeComputed = <const K extends Readonly<Record<string, ColumnType>>>(
  row: DbRow,
  columns: K,
  source = "query",
): { -readonly [C in keyof K]: ColumnValues[K[C]] } => checked(row, source, columns, columns);
`;
