/**
 * `npm run conformance -- --base-url URL --api-key KEY [...]`: the conformance kit's command line
 * (conformance/src/cli.ts) run from the checkout's sources, with the same options and exit codes
 * as the packed `npx partner-api-conformance` (docs/conformance-kit.md).
 */
await import("../conformance/src/cli.js");
