/**
 * `npm run build:server`: the reference server as one script with its code cache, in dist/server/
 * (see scripts/lib/server-build.ts), and the HTML reference the developer portal serves, rebuilt
 * when a published document changed (scripts/lib/reference-docs.ts).
 */
import { buildReferenceDocs, REFERENCE_DIRECTORY } from "./lib/reference-docs.js";
import { buildServer, SERVER_DIRECTORY, SERVER_ENTRY } from "./lib/server-build.js";

const started = performance.now();
const metafile = await buildServer();
console.log(
  `built ${SERVER_ENTRY} (${Object.keys(metafile.inputs).length} modules in ${SERVER_DIRECTORY}) in ${Math.round(performance.now() - started)} ms`,
);
const docsStarted = performance.now();
const pages = buildReferenceDocs(REFERENCE_DIRECTORY, { onlyStale: true });
if (pages > 0) console.log(`built ${pages} reference pages in ${REFERENCE_DIRECTORY} in ${Math.round(performance.now() - docsStarted)} ms`);
