/** `npm run build:docs [DIR]`: the HTML reference of each published document (scripts/lib/reference-docs.ts), default dist/docs/. */
import { buildReferenceDocs, REFERENCE_DIRECTORY } from "./lib/reference-docs.js";

const outDir = process.argv[2] ?? REFERENCE_DIRECTORY;
console.log(`built ${buildReferenceDocs(outDir)} reference pages in ${outDir}`);
