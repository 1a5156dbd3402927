/** The two partners of `npm run bench:fairness` (bench/fairness.ts, bench/targets/fairness-server.ts). */
export const HEAVY_KEY = "sk_sandbox_fairnessHeavyPartnerKey0000000";
export const LIGHT_KEY = "sk_sandbox_fairnessLightPartnerKey0000000";
export const FAIRNESS_PARTNERS = [
  { partner: { id: "heavy", name: "Heavy partner" }, keys: [HEAVY_KEY] },
  { partner: { id: "light", name: "Light partner" }, keys: [LIGHT_KEY] },
];
