/**
 * `npm run bench:serializers`: whether fast-json-stringify (fastify's serializer, which compiles a
 * response schema into a serializer) writes our answers faster than JSON.stringify does, on the
 * answers of the read and the list, with their schemas from the published document. Only a
 * faster serializer would be worth its place in the response path: each answer is validated
 * against the same schema anyway (express-openapi-validator), so compiling gains nothing else.
 * Each serializer must write the same JSON value as JSON.stringify first (for that, the schemas' OpenAPI
 * 3.0 `nullable` is rewritten as JSON Schema, which fast-json-stringify reads). Options: --out FILE.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual, parseArgs } from "node:util";
import fastJson from "fast-json-stringify";
import { validatorDocumentPath } from "../generated/deployment.js";
import { FIXED_BODY } from "./targets/fixed-body.js";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const ITERATIONS = 20_000;
const ROUNDS = 5;

type Document = { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>> };
const document = JSON.parse(readFileSync(validatorDocumentPath("full", "sandbox"), "utf8")) as Document & { components: object };
/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema says it (a type that admits null): fast-json-stringify
 * reads JSON Schema, and writes a null string as "" and a null integer as 0 otherwise.
 */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, asJsonSchema(value)]));
  return nullable === true && typeof converted.type === "string" ? { ...converted, type: [converted.type, "null"] } : converted;
}

/** The answer's schema with the document's components beside it, so its local references resolve. */
const schemaOf = (path: string, status: string) =>
  asJsonSchema({ ...document.paths[path]!.get!.responses[status]!.content["application/json"]!.schema, components: document.components });

const at = "2026-11-22T10:00:00Z";
const ANSWERS = [
  {
    name: "read: GET domain detail (5 records)",
    schema: schemaOf("/api/v1/domains/{domain_id}", "200"),
    // The baselines' fixed body, which has the read's shape.
    body: JSON.parse(FIXED_BODY) as object,
  },
  {
    name: "list: GET users (limit 100)",
    schema: schemaOf("/api/v1/users", "200"),
    body: {
      users: Array.from({ length: 100 }, (_, i) => ({
        user_identifier: `user_${String(i).padStart(4, "0")}`,
        email: i % 3 === 0 ? null : `u${i}@example.com`,
        created_at: at,
        last_login: at,
        domain_count: i % 4,
      })),
      total: 150,
      limit: 100,
      offset: 0,
    },
  },
];

/** Median µs per call over ROUNDS rounds. */
function time(serialize: (value: unknown) => string, value: unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) serialize(value);
    rounds.push(Number(process.hrtime.bigint() - started) / ITERATIONS / 1000);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

const lines = [
  `# Serializers, ${new Date().toISOString().slice(0, 10)}`,
  "",
  `Node ${process.version}; \`npm run bench:serializers\`: µs per answer, the median of ${ROUNDS} rounds of ${ITERATIONS.toLocaleString("en")} calls.`,
  "",
  "| Answer | JSON.stringify µs | fast-json-stringify µs | fast-json-stringify / JSON.stringify |",
  "|---|---:|---:|---:|",
];
for (const { name, schema, body } of ANSWERS) {
  const compiled = fastJson(schema as never);
  // The same JSON value; members come in the schema's order, not the object's.
  if (!isDeepStrictEqual(JSON.parse(compiled(body)), body))
    throw new Error(`fast-json-stringify writes ${name} differently: ${compiled(body)}`);
  // Warm both first: the JIT's work is not what is compared.
  time(JSON.stringify, body);
  time(compiled, body);
  const plain = time(JSON.stringify, body);
  const fast = time(compiled, body);
  lines.push(`| ${name} | ${plain.toFixed(2)} | ${fast.toFixed(2)} | ${(fast / plain).toFixed(2)} |`);
}
const report = lines.join("\n");
console.log(report);
if (values.out) writeFileSync(values.out, `${report}\n`);
