/**
 * Node's options for the server, wherever it runs (`npm run serve`, the benchmarks' reference
 * targets): without the deprecation warning (DEP0169) Node 24 prints when express-openapi-validator
 * calls `url.parse` on a request; a young generation of 64 MiB semi-spaces; and no allocation-site
 * pretenuring. Under sustained load V8 came to allocate some of each request's short-lived objects
 * straight into the old generation (pretenuring, decided from how many survived a scavenge), which
 * then filled with garbage: a major collection every second or two, and two to three times the CPU
 * per request once the heap had grown (bench/results/2026-11-25-node24.md has the runs). Objects
 * that do live long, such as the memory store's rows, still reach the old generation by surviving.
 */
export const SERVER_NODE_OPTIONS = ["--disable-warning=DEP0169", "--max-semi-space-size=64", "--no-allocation-site-pretenuring"] as const;
