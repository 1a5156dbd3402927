/**
 * The conformance kit's checks against the reference server in-process: the same checks
 * `npm run conformance` runs against any URL, each a test here (one suite, two targets).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_CHECKS } from "../../conformance/src/checks/index.js";
import { catalogueProblems, loadCatalogue } from "../../conformance/src/catalogue.js";
import { runOrder } from "../../conformance/src/runner.js";
import { KitSession } from "../../conformance/src/session.js";
import { describeTarget } from "../../conformance/src/target.js";
import { KIT_KEYS, startKitTargetServer, type KitTargetServer } from "../support/kit-target-server.js";

let server: KitTargetServer;
let session: KitSession;

beforeAll(async () => {
  server = await startKitTargetServer();
  session = new KitSession(describeTarget({ baseUrl: server.apiUrl, ...KIT_KEYS }));
});

afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe("the rule catalogue", () => {
  it("names a check for every rule (or why it cannot have one), and every check proves a rule", () => {
    expect(catalogueProblems(loadCatalogue(), [...ALL_CHECKS])).toEqual([]);
  });
});

describe("the kit's checks against the reference server", () => {
  it.each(runOrder(ALL_CHECKS).map((check) => [check.id, check] as const))("%s", async (_id, check, ...rest) => {
    void rest;
    const result = await session.runCheck(check);
    if (result.outcome === "failed") throw new Error(result.message);
    // Every check applies to the reference server: both variants, a sandbox, both extra keys, a receiver.
    expect(result.outcome, result.message).toBe("passed");
    expect(server.errors).toEqual([]);
  });
});
