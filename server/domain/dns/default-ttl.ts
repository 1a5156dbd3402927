/**
 * The TTL a record gets when its creator gives none: each variant documents its own (Variant R's
 * 3600, Variant D's 300), and templates and change sets, Variant D operations, take D's.
 */
import type { Variant } from "../../../generated/deployment.js";

export const DEFAULT_TTL = { R: 3600, D: 300 } as const satisfies Record<Variant, number>;

/**
 * What the embedded interface's add form starts with: it writes records in Variant D's terms, so
 * D's default where the deployment serves D, else R's, the one its API uses.
 */
export const interfaceDefaultTtl = (variants: readonly Variant[]) => (variants.includes("D") ? DEFAULT_TTL.D : DEFAULT_TTL.R);
