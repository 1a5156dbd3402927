/** `npm run mock`: port 4010 and no CORS unless given; every other option reaches Prism as written. */
import { describe, expect, it } from "vitest";
import { SANDBOX_BUNDLE_PATHS } from "../../scripts/lib/bundle-paths.js";
import { prismMockArguments } from "../../scripts/lib/mock-arguments.js";

describe("the mock's command line", () => {
  it.each([
    { given: [], prism: ["-p", "4010", "--cors=false"] },
    { given: ["-p", "4011"], prism: ["--cors=false", "-p", "4011"] },
    { given: ["--port", "4011"], prism: ["--cors=false", "--port", "4011"] },
    { given: ["--port=4011"], prism: ["--cors=false", "--port=4011"] },
    { given: ["--cors"], prism: ["-p", "4010", "--cors"] },
    { given: ["-d", "-v", "error"], prism: ["-p", "4010", "--cors=false", "-d", "-v", "error"] },
  ])("$given becomes mock DOCUMENT $prism", ({ given, prism }) => {
    expect(prismMockArguments(given)).toEqual(["mock", SANDBOX_BUNDLE_PATHS.full, ...prism]);
  });
});
