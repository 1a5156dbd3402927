/**
 * `npm run build:server` (run by `npm start`): the reference server as one script with its code
 * cache, in dist/server/ (scripts/lib/server-build.ts); the HTML reference the developer portal
 * serves, in dist/docs/ (scripts/lib/reference-docs.ts); and the client's tarball it offers for
 * install, in dist/client/ (scripts/lib/client-tarball.ts). Each is built only when what it is
 * made from changed since it was last built there, by content: a start with nothing changed
 * builds nothing.
 */
import { buildClientTarball, CLIENT_TARBALL_DIRECTORY } from "./lib/client-tarball.js";
import { buildReferenceDocs, REFERENCE_DIRECTORY } from "./lib/reference-docs.js";
import { buildServerUnlessCurrent, SERVER_DIRECTORY, SERVER_ENTRY } from "./lib/server-build.js";

const since = (started: number) => `${Math.round(performance.now() - started)} ms`;

// The client is packed by child processes (its compiler, then npm): started first, it packs while
// the server and the pages are built, on the other core.
const packingStarted = performance.now();
const packing = buildClientTarball(CLIENT_TARBALL_DIRECTORY, { onlyStale: true });
// Awaited below; this only keeps a failure elsewhere from also reporting it as unhandled.
packing.catch(() => {});

let started = performance.now();
const server = await buildServerUnlessCurrent();
console.log(
  server.built
    ? `built ${SERVER_ENTRY} (${server.modules} modules in ${SERVER_DIRECTORY}) in ${since(started)}`
    : `${SERVER_ENTRY} is up to date (checked in ${since(started)})`,
);
started = performance.now();
const pages = buildReferenceDocs(REFERENCE_DIRECTORY, { onlyStale: true });
if (pages > 0) console.log(`built ${pages} reference pages in ${REFERENCE_DIRECTORY} in ${since(started)}`);
const client = await packing;
if (client.built) console.log(`built ${CLIENT_TARBALL_DIRECTORY}/${client.file} in ${since(packingStarted)}`);
