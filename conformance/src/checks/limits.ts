/**
 * Rate limits: the buckets each operation counts against (the description's table, scaled by one
 * factor a target may choose), what X-RateLimit-* report of them, buckets counted per group and
 * per partner, and the 429 of an exhausted bucket.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { operationsOfDocument, type OperationRef } from "../contract-client.js";
import { SchemaValidator } from "../documents.js";
import { expectStatus } from "./expectations.js";
import { harmlessInput, policyOf, publishedBuckets, rawCall, reportedOf, type Reported } from "./limits-support.js";

/** Seconds of disagreement allowed between the target's clock and the kit's. */
const CLOCK_SKEW_S = 2;
/** The most requests the kit spends to exhaust a bucket: a larger one is not exhausted. */
const MOST_REQUESTS_TO_EXHAUST = 1000;
/** The longest the kit waits for a window that hides the bucket a check reads (a minute's, not an hour's). */
const LONGEST_WAIT_FOR_A_WINDOW_MS = 65_000;
/** Requests sent at once while exhausting a bucket. */
const EXHAUSTING_BATCH = 20;

const isAuthenticated = (op: OperationRef) => !(Array.isArray(op.operation.security) && op.operation.security.length === 0);
const classOf = (op: OperationRef): string | undefined => op.operation["x-rate-limit-class"];
const isExempt = (op: OperationRef) => op.operation["x-rate-limit-exempt"] === true;

/** Fails unless the X-RateLimit-* fields describe the bucket `RateLimit` names, with Reset its window's end. */
function expectConsistentReport(
  reported: Reported,
  policy: { name: string; q: number; w: number }[],
  label: string,
  /** When the request was made and its answer read, Unix seconds: the target's "now" lies between. */
  sent: number,
  received: number,
): void {
  const bucket = policy.find((item) => item.name === reported.name);
  if (!bucket) throw new Error(`${label}: RateLimit reports bucket ${reported.name}, which its RateLimit-Policy does not list`);
  expect({ label, limit: reported.limit, remaining: reported.xRemaining }).toEqual({
    label,
    limit: bucket.q,
    remaining: reported.remaining,
  });
  if (!(reported.reset >= sent - CLOCK_SKEW_S && reported.reset <= received + bucket.w + CLOCK_SKEW_S))
    throw new Error(
      `${label}: X-RateLimit-Reset ${reported.reset} is not a Unix time within the ${bucket.w} s window from now (${Math.floor(received)})`,
    );
  // RateLimit's t counts from the target's now, somewhere between the request and its answer.
  const targetNow = reported.reset - reported.seconds;
  if (targetNow < sent - CLOCK_SKEW_S || targetNow > received + CLOCK_SKEW_S)
    throw new Error(`${label}: X-RateLimit-Reset ${reported.reset} and RateLimit t=${reported.seconds} disagree on when the window resets`);
  if (reported.reset % bucket.w !== 0)
    throw new Error(`${label}: X-RateLimit-Reset ${reported.reset} is not the end of a ${bucket.w} s window aligned to Unix time`);
}

/**
 * Runs `sequence` until every answer reports `bucket` within one window: while another bucket is
 * closer to exhaustion the class's counter is hidden, so the kit waits for that window to end.
 */
async function withinOneWindow(context: CheckContext, bucket: string, sequence: () => Promise<Reported[]>): Promise<Reported[]> {
  for (let attempt = 1; ; attempt++) {
    const reports = await sequence();
    const other = reports.find((report) => report.name !== bucket);
    const rolled = reports.some((report) => report.reset !== reports[0]!.reset);
    if (!other && !rolled) return reports;
    if (attempt === 3)
      throw new Error(`three times, bucket ${bucket} was not the one reported for a whole sequence: ${JSON.stringify(reports)}`);
    if (other) {
      const wait = Math.max(0, other.reset * 1000 - Date.now()) + 500;
      if (wait > LONGEST_WAIT_FOR_A_WINDOW_MS)
        context.notApplicable(`bucket ${other.name} hides ${bucket} and resets only in ${Math.round(wait / 1000)} s`);
      context.note(`waiting ${(wait / 1000).toFixed(1)} s for bucket ${other.name} to reset, so ${bucket} is reported`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export default defineChecks([
  {
    id: "limits.buckets-match-the-table",
    title:
      "each operation counts against the overall hour and minute and its group's bucket, each the description's limit times one common factor; X-RateLimit-* report one of them, Reset its window's end",
    needs: ["state"],
    async run(context) {
      const published = publishedBuckets(context);
      let factor: number | null = null;
      const failures: string[] = [];
      for (const op of operationsOfDocument(context.target.document)) {
        if (!isAuthenticated(op) || (isExempt(op) && op.method !== "get")) continue;
        const sent = Date.now() / 1000;
        const result = await context.api.call(op.operationId, harmlessInput(op));
        const received = Date.now() / 1000;
        const label = `${op.operationId} (${result.status})`;
        try {
          const policy = policyOf(result.headers, label);
          const expected = ["overall_3600s", "overall_60s", ...(classOf(op) && !isExempt(op) ? [classOf(op)!] : [])];
          expect({ label, buckets: policy.map((item) => item.name).sort() }).toEqual({ label, buckets: expected.sort() });
          for (const item of policy) {
            const table = published.get(item.name)!;
            factor ??= item.q / table.limit;
            expect({ label, bucket: item.name, window: item.w }).toEqual({ label, bucket: item.name, window: table.window });
            if (item.q !== Math.max(1, Math.round(table.limit * factor)))
              throw new Error(
                `${label}: bucket ${item.name} allows ${item.q}, not ${table.limit} x ${factor} (the factor the other buckets show)`,
              );
          }
          expectConsistentReport(reportedOf(result.headers, label), policy, label, sent, received);
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      if (failures.length) throw new Error(failures.join("\n"));
      context.note(`limits scaled by ${factor}`);
    },
  },
  {
    id: "limits.groups-count-apart",
    title: "two operations of one group draw on one counter; an operation of another group, or a sandbox helper, draws nothing from it",
    needs: ["state"],
    operations: ["updateDomain", "renewDomain", "getDomain", "getSandboxClock"],
    async run(context) {
      const { api } = context;
      const call = async (operationId: string) => {
        const result = await api.call(operationId, harmlessInput(api.operation(operationId)));
        return reportedOf(result.headers, operationId);
      };
      const [first, sameGroup, afterOthers] = await withinOneWindow(context, "domain_update", async () => {
        const reports = [await call("updateDomain"), await call("renewDomain")];
        await call("getDomain");
        await call("getSandboxClock");
        reports.push(await call("updateDomain"));
        return reports;
      });
      if (sameGroup!.remaining !== first!.remaining - 1)
        throw new Error(
          `renewDomain after updateDomain left domain_update ${sameGroup!.remaining} of ${first!.remaining}: one group, one counter, one request each`,
        );
      if (afterOthers!.remaining !== first!.remaining - 2)
        throw new Error(
          `after getDomain (domain_retrieval) and a sandbox helper, domain_update went from ${sameGroup!.remaining} to ${afterOthers!.remaining + 1} before the next request: another group's request drew on it`,
        );
      // The sandbox helpers count against no bucket, the overall ones included.
      const overall = (await call("getDomain")).name;
      if (!overall.startsWith("overall_"))
        context.notApplicable(`getDomain reports ${overall}, not an overall bucket, so the overall counters are hidden`);
      const [before, after] = await withinOneWindow(context, overall, async () => {
        const reports = [await call("getDomain")];
        await call("getSandboxClock");
        await call("getSandboxClock");
        reports.push(await call("getDomain"));
        return reports;
      });
      if (after!.remaining !== before!.remaining - 1)
        throw new Error(
          `two sandbox helper requests took ${overall} from ${before!.remaining - 1} to ${after!.remaining}: the helpers are exempt from the limits`,
        );
    },
  },
  {
    id: "limits.counted-per-partner",
    title: "another partner's requests draw nothing from the partner's buckets",
    needs: ["state", "second-key"],
    operations: ["updateDomain"],
    async run(context) {
      const { api } = context;
      const op = api.operation("updateDomain");
      const call = async (key?: string) => {
        const result = await api.call("updateDomain", { ...harmlessInput(op), ...(key ? { key } : {}) });
        return reportedOf(result.headers, key ? "updateDomain with the second key" : "updateDomain");
      };
      const [before, after] = await withinOneWindow(context, "domain_update", async () => {
        const first = await call();
        await call(context.target.secondKey!);
        await call(context.target.secondKey!);
        return [first, await call()];
      });
      if (after!.remaining !== before!.remaining - 1)
        throw new Error(
          `two requests of another partner took domain_update from ${before!.remaining} to ${after!.remaining + 1}: buckets are per partner`,
        );
    },
  },
  {
    id: "limits.exhausted-bucket-refused-429",
    title:
      "once a bucket is used up the next request is 429 rate_limit_exceeded with Retry-After and details, other groups still served, a sandbox clock advance frees nothing (run last)",
    needs: ["state"],
    operations: ["initiateTransfer", "getDomain"],
    // Leaves a bucket exhausted until its window ends: every other check runs first.
    destructive: true,
    async run(context) {
      const op = context.api.operation("initiateTransfer");
      // For a user that does not exist: the operation's own 404, nothing made.
      const input = {
        body: { domain_name: `${context.unique("limits")}.com`, user_identifier: "conformance_absent_user", auth_code: "Xk8#pL2q!Rm9" },
      };
      attempts: for (let attempt = 1; ; attempt++) {
        const probe = await context.api.call("initiateTransfer", input);
        expectStatus(probe, 404, "a transfer to a user that does not exist");
        const start = reportedOf(probe.headers, "initiateTransfer");
        if (start.limit > MOST_REQUESTS_TO_EXHAUST)
          context.notApplicable(
            `the smallest bucket of initiateTransfer allows ${start.limit} requests, more than the kit spends (${MOST_REQUESTS_TO_EXHAUST})`,
          );
        let accepted = 0;
        let refused: Awaited<ReturnType<typeof rawCall>> | null = null;
        let rolled = false;
        while (!refused && !rolled && accepted <= start.remaining) {
          const batch = await Promise.all(
            Array.from({ length: Math.min(EXHAUSTING_BATCH, start.remaining + 1 - accepted) }, () => rawCall(context, op, input)),
          );
          for (const answer of batch) {
            if (Number(answer.headers.get("x-ratelimit-reset")) !== start.reset && answer.status !== 429) rolled = true;
            if (answer.status === 429) refused ??= answer;
            else if (answer.status === 404) accepted++;
            else
              throw new Error(`while using up ${start.name}, initiateTransfer answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          }
        }
        // A window that ends while the kit is at it frees the bucket: that attempt proves nothing, the next one starts afresh.
        const windowEnded = (answer: { status: number; headers: Headers }) =>
          answer.status !== 429 && Number(answer.headers.get("x-ratelimit-reset")) !== start.reset;
        const tryAgain = () => {
          if (attempt === 3) throw new Error("three times a window ended while the kit was using up a bucket");
        };
        if (rolled || (refused && Number(refused.headers.get("x-ratelimit-reset")) !== start.reset)) {
          tryAgain();
          continue;
        }
        if (!refused)
          throw new Error(`${start.name} reported ${start.remaining} requests left, yet ${accepted} were served and none refused`);
        if (accepted !== start.remaining)
          throw new Error(
            `${start.name} reported ${start.remaining} requests left, but the target served ${accepted} before answering 429`,
          );
        context.api.pacer.afterResponse(context.target.apiKey, "initiateTransfer", refused.headers);
        const errors = new SchemaValidator(context.target.document).schemaErrors("RateLimitError", refused.body);
        if (errors) throw new Error(`the 429 body breaks RateLimitError: ${errors}: ${JSON.stringify(refused.body)}`);
        const window = publishedBuckets(context).get(start.name)!.window;
        expect(refused.body).toMatchObject({ error: "rate_limit_exceeded", details: { limit: start.limit, window } });
        const retryAfter = refused.headers.get("retry-after");
        if (!retryAfter || !/^\d+$/.test(retryAfter))
          throw new Error(`the 429 carries Retry-After ${JSON.stringify(retryAfter)}, not a number of seconds`);
        expect(refused.body.details.retry_after).toBe(Number(retryAfter));
        const after = reportedOf(refused.headers, "the 429");
        expect({ name: after.name, remaining: after.xRemaining, limit: after.limit }).toEqual({
          name: start.name,
          remaining: 0,
          limit: start.limit,
        });
        const wait = after.reset - Date.now() / 1000;
        if (Math.abs(Number(retryAfter) - wait) > CLOCK_SKEW_S || Number(retryAfter) > window)
          throw new Error(
            `Retry-After ${retryAfter} s does not wait for the window's end (X-RateLimit-Reset ${after.reset}, ${wait.toFixed(1)} s from now)`,
          );
        if (start.name !== "overall_60s" && start.name !== "overall_3600s") {
          const getDomain = context.api.operation("getDomain");
          const other = await rawCall(context, getDomain, { path: {} });
          if (other.status === 429)
            throw new Error(`with ${start.name} used up, getDomain (domain_retrieval) was refused too: ${JSON.stringify(other.body)}`);
          // A refused request counts against no bucket: the overall ones getDomain reports do not move.
          const beforeRefusals = reportedOf(other.headers, "getDomain");
          for (let i = 0; i < 3; i++) {
            const again = await rawCall(context, op, input);
            if (windowEnded(again)) {
              tryAgain();
              continue attempts;
            }
            if (again.status !== 429) throw new Error(`a request to the used-up ${start.name} answered ${again.status}, not 429`);
          }
          const afterRefusals = reportedOf((await rawCall(context, getDomain, { path: {} })).headers, "getDomain");
          const sameWindow = afterRefusals.name === beforeRefusals.name && afterRefusals.reset === beforeRefusals.reset;
          if (sameWindow && afterRefusals.remaining !== beforeRefusals.remaining - 1)
            throw new Error(
              `three refused requests took ${beforeRefusals.name} from ${beforeRefusals.remaining - 1} to ${afterRefusals.remaining}: a request answered 429 must count against no bucket`,
            );
        }
        if (context.api.has("advanceSandboxClock") && context.target.environment === "sandbox") {
          // Windows run on the real clock: moving the sandbox's frees no request.
          // Past the kit's pacer, which would wait for the used-up bucket before an operation it has not seen.
          const advanced = await rawCall(context, context.api.operation("advanceSandboxClock"), { body: { seconds: 2 * window } });
          if (advanced.status !== 200)
            throw new Error(
              `advancing the sandbox clock (exempt from limits) answered ${advanced.status}: ${JSON.stringify(advanced.body)}`,
            );
          const still = await rawCall(context, op, input);
          if (windowEnded(still)) {
            tryAgain();
            continue;
          }
          if (still.status !== 429)
            throw new Error(
              `after a sandbox clock advance of ${2 * window} s the used-up ${start.name} served a request (${still.status}): windows must run on the real clock`,
            );
        }
        context.note(`used up ${start.name} (${start.limit} a ${window} s window) with ${accepted} requests`);
        return;
      }
    },
  },
]);
