/**
 * The API's types, generated from spec/partner-api.yml by `npm run generate` (never written by hand).
 * In the repository they come straight from generated/; the build (scripts/build.mjs) copies those
 * files into the package and points these re-exports at the copies, so the published package
 * imports nothing from outside its own folder.
 */
export type { paths, components, operations } from "../../generated/types/full.js";
export type { paths as VariantRPaths } from "../../generated/types/variant-r.js";
export type { paths as VariantDPaths } from "../../generated/types/variant-d.js";
export type * as VariantR from "../../generated/types/variant-r.js";
export type * as VariantD from "../../generated/types/variant-d.js";
export { keyScopes, requiredScopes } from "../../generated/types/required-scopes.js";
export type { RequiredScope, Scope } from "../../generated/types/required-scopes.js";
