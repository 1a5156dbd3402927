/**
 * The sweep over every operation of the target's document: each answers its documented success
 * status with a body that conforms, refuses a request without a key with 401, reports its rate
 * limits, and refuses every body broken in one constraint of its schema with a documented 4xx.
 */
import { expect } from "expect";
import { mutationsOf } from "../body-mutations.js";
import { defineChecks, type CheckContext } from "../check.js";
import { operationsOfDocument, type CallResult, type OperationRef } from "../contract-client.js";
import { missingNeed, SCENARIOS } from "../scenarios.js";
import { expectConforming } from "./expectations.js";

export const PRISM_PROXY_ANSWERS_ITSELF = "Prism's proxy answers this itself, in its own shape (stoplightio/prism#1827)";

const successStatus = (responses: Record<string, unknown>) =>
  Math.min(
    ...Object.keys(responses)
      .map(Number)
      .filter((s) => s >= 200 && s < 300),
  );
const isAuthenticated = (operation: Record<string, any>) => !(Array.isArray(operation.security) && operation.security.length === 0);
const documentedClientErrors = (operation: Record<string, any>) =>
  Object.keys(operation.responses)
    .map(Number)
    .filter((s) => s >= 400 && s < 500);

/**
 * Runs `each` on every operation that has a scenario the target can run and that `select` keeps,
 * collecting every failure, so one run names every operation that breaks the rule.
 */
async function everyOperation(
  context: CheckContext,
  select: (op: OperationRef) => boolean,
  each: (op: OperationRef, input: Parameters<CheckContext["api"]["call"]>[1]) => Promise<void>,
): Promise<void> {
  const fixtures = await context.fixtures();
  const failures: string[] = [];
  let checked = 0;
  for (const op of operationsOfDocument(context.target.document)) {
    const scenario = SCENARIOS[op.operationId];
    if (!scenario || scenario.destructive || !select(op)) continue;
    const missing = missingNeed(scenario, fixtures);
    if (missing) {
      context.note(`${op.operationId}: not applicable, ${missing}`);
      continue;
    }
    try {
      await each(op, await scenario.input(fixtures, context.api));
      checked++;
    } catch (error) {
      failures.push(`${op.operationId} (${op.method.toUpperCase()} ${op.path}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${checked + failures.length} operations:\n${failures.join("\n")}`);
}

export default defineChecks([
  {
    id: "http.operations-have-scenarios",
    title: "the kit can call every operation of the target's document",
    async run({ target }) {
      const without = operationsOfDocument(target.document)
        .map((op) => op.operationId)
        .filter((id) => !SCENARIOS[id]);
      expect(without).toEqual([]);
    },
  },
  {
    id: "http.every-operation-succeeds-as-documented",
    title: "every operation answers its documented success status with a body that conforms",
    async run(context) {
      await everyOperation(
        context,
        () => true,
        async (op, input) => {
          const result = await context.api.call(op.operationId, input);
          expectConforming(result);
          expect(result.status).toBe(successStatus(op.operation.responses));
        },
      );
    },
  },
  {
    id: "auth.every-operation-refuses-no-key",
    title: "every authenticated operation refuses a request without a key: 401 unauthorized",
    async run(context) {
      if (context.target.throughPrismProxy) context.notApplicable(PRISM_PROXY_ANSWERS_ITSELF);
      await everyOperation(
        context,
        (op) => isAuthenticated(op.operation),
        async (op, input) => {
          const result = await context.api.call(op.operationId, { ...input, key: null });
          expectConforming(result);
          expect(result.status).toBe(401);
          expect(result.body).toMatchObject({ error: "unauthorized" });
        },
      );
    },
  },
  {
    id: "limits.every-operation-reports-headers",
    title: "every authenticated operation reports X-RateLimit-Limit, -Remaining (at most the limit) and -Reset",
    async run(context) {
      await everyOperation(
        context,
        (op) => isAuthenticated(op.operation),
        async (op, input) => {
          const result = await context.api.call(op.operationId, input);
          for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
            expect({ [name]: result.headers.get(name) }).toEqual({ [name]: expect.stringMatching(/^\d+$/) });
          expect(Number(result.headers.get("x-ratelimit-remaining"))).toBeLessThanOrEqual(Number(result.headers.get("x-ratelimit-limit")));
          if (!context.target.stateless) expect(Number(result.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
        },
      );
    },
  },
  {
    id: "validation.every-operation-refuses-broken-bodies",
    title:
      "every body broken in one constraint of its schema (missing, wrong type, past a bound, unknown field, outside an enum) gets a documented 4xx",
    async run(context) {
      await everyOperation(
        context,
        (op) => {
          const body = op.operation.requestBody?.content?.["application/json"];
          return body?.example !== undefined && typeof body.example === "object" && !Array.isArray(body.example);
        },
        async (op, input) => {
          const body = op.operation.requestBody.content["application/json"];
          const mutations = mutationsOf(context.target.document, body.schema, body.example);
          const allowed = documentedClientErrors(op.operation).filter((status) => status !== 401 && status !== 429);
          // Each broken body once: a target's real limits make every request count.
          const failures: string[] = [];
          for (const mutation of mutations) {
            const result: CallResult = await context.api.call(op.operationId, { ...input, body: mutation.body });
            if (result.violations.length) failures.push(`${mutation.breaks}: ${result.violations.join("; ")}`);
            else if (!allowed.includes(result.status))
              failures.push(
                `${mutation.breaks}: answered ${result.status} ${JSON.stringify(result.body)}, documented ${allowed.join(", ")}`,
              );
          }
          if (failures.length) throw new Error(failures.join("\n"));
        },
      );
    },
  },
  {
    id: "sandbox.reset-answers-as-documented",
    title: "resetting the sandbox answers its documented success status (run last)",
    destructive: true,
    operations: ["resetSandbox"],
    async run({ api }) {
      const op = api.operation("resetSandbox");
      const result = await api.call("resetSandbox", {});
      expectConforming(result);
      expect(result.status).toBe(successStatus(op.operation.responses));
    },
  },
]);
