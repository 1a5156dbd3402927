/** `npm run build:server`: the reference server as one script with its code cache, in dist/server/ (see scripts/lib/server-build.ts). */
import { buildServer, SERVER_DIRECTORY, SERVER_ENTRY } from "./lib/server-build.js";

const started = performance.now();
const metafile = await buildServer();
console.log(
  `built ${SERVER_ENTRY} (${Object.keys(metafile.inputs).length} modules in ${SERVER_DIRECTORY}) in ${Math.round(performance.now() - started)} ms`,
);
