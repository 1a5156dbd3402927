/** `npm run check:generators`: its command line and its table (the matrix itself runs in CI, not here: it takes a minute). */
import { describe, expect, it } from "vitest";
import { CLIENT_GENERATORS } from "../../scripts/lib/client-generators.js";
import { type MatrixRow, matrixPassed, matrixTable, parseMatrixArguments } from "../../scripts/lib/generator-matrix.js";

const KNOWN = CLIENT_GENERATORS.map(({ name }) => name);
const passed = (seconds: number) => ({ passed: true, seconds });

describe("the generator matrix's command line", () => {
  it.each([
    { given: [], generators: KNOWN, keep: false },
    { given: ["--keep"], generators: KNOWN, keep: true },
    { given: ["--only", "orval"], generators: ["orval"], keep: false },
    { given: ["--only=orval,@hey-api/openapi-ts", "--keep"], generators: ["orval", "@hey-api/openapi-ts"], keep: true },
  ])("$given runs $generators", ({ given, generators, keep }) => {
    expect(parseMatrixArguments(given, KNOWN)).toEqual({ generators, keep });
  });

  it.each([
    { given: ["--only"], message: "--only needs generator names" },
    { given: ["--only="], message: "--only needs generator names" },
    { given: ["--only", "openapi-generator"], message: "unknown generator openapi-generator; known: @hey-api/openapi-ts" },
    { given: ["--only=orval,nswag"], message: "unknown generator nswag" },
    { given: ["--watch"], message: "unknown argument --watch" },
    { given: ["orval"], message: "unknown argument orval" },
  ])("refuses $given", ({ given, message }) => {
    expect(() => parseMatrixArguments(given, KNOWN)).toThrow(message);
  });
});

describe("the generator matrix's table", () => {
  const green: MatrixRow = { generator: "orval", steps: { generate: passed(1.23), compile: passed(4), scenario: passed(0.05) } };
  const compileFailed: MatrixRow = {
    generator: "openapi-typescript-codegen",
    steps: { generate: passed(2), compile: { passed: false, seconds: 8.46 } },
  };

  it("shows each step's result and seconds, and the steps an earlier failure skipped", () => {
    expect(matrixTable([green, compileFailed]).split("\n")).toEqual([
      "| generator                  | generate   | compile    | scenario   |",
      "|----------------------------|------------|------------|------------|",
      "| orval                      | pass 1.2 s | pass 4.0 s | pass 0.1 s |",
      "| openapi-typescript-codegen | pass 2.0 s | FAIL 8.5 s | skipped    |",
    ]);
  });

  it.each([
    { rows: [green], expected: true },
    { rows: [green, compileFailed], expected: false },
    { rows: [{ generator: "orval", steps: { ...green.steps, scenario: { passed: false, seconds: 1 } } }], expected: false },
    { rows: [{ generator: "orval", steps: { generate: passed(1), compile: passed(1) } }], expected: false },
    { rows: [], expected: false },
  ])("passes only when every step of every generator passed ($expected)", ({ rows, expected }) => {
    expect(matrixPassed(rows)).toBe(expected);
  });
});

describe("the generators", () => {
  it("each drive their clients through an adapter of their own", () => {
    expect(new Set(CLIENT_GENERATORS.map(({ adapter }) => adapter)).size).toBe(CLIENT_GENERATORS.length);
  });
});
