/**
 * The developer portal at the docs address (/docs/ of the dashboard's host): the published
 * OpenAPI documents (`partner-api.yml`, Variant R, as the service description names it, and the
 * other bundles), the HTML reference of each, and the client's tarball with how to install it (the
 * package is on no registry). Public: no sign-in.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Express, RequestHandler } from "express";
import { Html, html } from "../web/html.js";
import { clientTarballVersion, LATEST_CLIENT_TARBALL } from "./client-tarball-files.js";
import type { Dashboard } from "./routes/dashboard-context.js";
import { page } from "./views/layout.js";

export interface PortalFiles {
  /** The published documents (generated/openapi/). */
  documents: string;
  /** The HTML reference pages (dist/docs/, built by `npm run build:server` or `npm run build:docs`). */
  reference: string;
  /** The client's tarball, by version and as the latest (dist/client/, built by `npm run build:server`). */
  client: string;
  /** The rule catalogue as `npm run generate` renders it (generated/rules.json); default the repository's. */
  rules?: string;
  /** CHANGELOG.md as `npm run generate` renders it (generated/changelog.html); default the repository's. */
  changelog?: string;
}

export const DEFAULT_PORTAL_FILES: PortalFiles = {
  documents: fileURLToPath(new URL("../../generated/openapi/", import.meta.url)),
  reference: fileURLToPath(new URL("../../dist/docs/", import.meta.url)),
  client: fileURLToPath(new URL("../../dist/client/", import.meta.url)),
  rules: fileURLToPath(new URL("../../generated/rules.json", import.meta.url)),
  changelog: fileURLToPath(new URL("../../generated/changelog.html", import.meta.url)),
};

interface CatalogueFamily {
  family: string;
  title: string;
  rules: Array<{ id: string; rule: string; source: string; checks: string[]; black_box?: string }>;
}

/** The rule catalogue: what the conformance kit checks, rule by rule. */
function rulesPage(families: CatalogueFamily[]): string {
  const rules = families.flatMap((family) => family.rules);
  const checked = rules.filter((rule) => rule.checks.length > 0).length;
  return page(
    "Rules",
    html`<h1>The rules of the API</h1>
<p>Every rule of the service description and of this implementation's additions, with the checks of the conformance kit (<code>@partner-api/conformance</code>) that prove it over HTTP against any base URL: ${rules.length} rules, ${checked} checked; each of the others says why no check over HTTP can prove it.</p>
<nav aria-label="Families"><ul>${families.map((family) => html`<li><a href="#${family.family}">${family.title}</a></li>`)}</ul></nav>
${families.map(
  (family) => html`<section aria-labelledby="${family.family}"><h2 id="${family.family}">${family.title}</h2>
<div class="table-scroll" role="region" aria-labelledby="${family.family}" tabindex="0"><table>
<thead><tr><th scope="col">Rule</th><th scope="col">Statement</th><th scope="col">Checked by</th></tr></thead>
<tbody>${family.rules.map(
    (rule) =>
      html`<tr><th scope="row">${rule.id}</th><td>${rule.rule}<br><span class="hint">${rule.source}</span></td><td>${rule.checks.length ? rule.checks.map((id) => html`<code>${id}</code> `) : html`Not over HTTP: ${rule.black_box ?? ""}`}</td></tr>`,
  )}</tbody></table></div></section>`,
)}`,
  );
}

/** What each document is, by file name. */
const DOCUMENTS: ReadonlyArray<{ file: string; title: string; about: string }> = [
  {
    file: "partner-api.yml",
    title: "Partner API (Variant R)",
    about: "The minimal shapes with bearer authentication and both servers, as the service description publishes it.",
  },
  { file: "partner-api.d.yml", title: "Partner API (Variant D)", about: "Domain-scoped DNS records with content." },
  { file: "partner-api.full.yml", title: "Partner API (both variants)", about: "Every operation of both variants and the additions." },
  { file: "partner-api.sandbox.yml", title: "Sandbox, Variant R", about: "With the sandbox's helpers (clock, reset, magic names)." },
  { file: "partner-api.d.sandbox.yml", title: "Sandbox, Variant D", about: "Variant D with the sandbox's helpers." },
  { file: "partner-api.full.sandbox.yml", title: "Sandbox, both variants", about: "Everything, as this sandbox serves it." },
];

/** Redoc's pages carry their scripts and styles inline and start a worker: allowed on these pages only. */
const REFERENCE_POLICY =
  "default-src 'none'; script-src 'self' 'unsafe-inline' blob:; worker-src blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Available {
  documents: Set<string>;
  reference: Set<string>;
  client: Set<string>;
}

/** The versioned tarball to offer: the newest, when the directory holds several. */
const offeredTarball = (client: Set<string>) =>
  [...client].filter((file) => clientTarballVersion(file) !== undefined).sort((a, b) => b.localeCompare(a, "en", { numeric: true }))[0];

function installStep(available: Available, portalUrl: string) {
  const tarball = offeredTarball(available.client);
  if (tarball === undefined)
    return html`<li>Install the client: its package is not built here (<code>npm run build:server</code> builds it). From a checkout of this repository, <code>npm pack --workspace @partner-api/client</code> makes <code>partner-api-client-&lt;version&gt;.tgz</code> to install.</li>`;
  return html`<li>Install the client from this portal (it is on no npm registry): <pre class="example"><code>npm install ${portalUrl}/docs/client/${tarball}</code></pre>
<span class="hint">Or download <a href="/docs/client/${tarball}">${tarball}</a>; <a href="/docs/client/${LATEST_CLIENT_TARBALL}">${LATEST_CLIENT_TARBALL}</a> is always the latest.</span></li>`;
}

function portalPage(available: Available, dashboard: Dashboard, portalUrl: string): string {
  const documents = DOCUMENTS.filter(({ file }) => available.documents.has(file));
  return page(
    "Developer portal",
    html`<h1>Partner Domain and DNS Service API</h1>
<p>Everything to build against the API: its OpenAPI descriptions, a reference to read, and the typed client. Keys come from the <a href="/keys">dashboard</a>.</p>
<section class="card" aria-labelledby="start-heading"><h2 id="start-heading">Start</h2>
<ol>
<li>Sign in to the <a href="/keys">dashboard</a> and create a sandbox key.</li>
${installStep(available, portalUrl)}
<li>Call the sandbox at <code>${dashboard.apiBaseUrl}</code>: <pre class="example"><code>curl -s ${dashboard.apiBaseUrl}/api/v1/domains/tlds -H 'Authorization: Bearer sk_sandbox_...'</code></pre></li>
</ol>
</section>
<p>The <a href="/docs/rules">rules of the API</a>: every rule, with the conformance kit's checks that prove it. The <a href="/docs/changelog">changelog</a>: what each release added and changed.</p>
<section aria-labelledby="documents-heading"><h2 id="documents-heading">OpenAPI documents and reference</h2>
<div class="table-scroll" role="region" aria-labelledby="documents-heading" tabindex="0"><table>
<caption class="visually-hidden">Published documents</caption>
<thead><tr><th scope="col">Document</th><th scope="col">What it describes</th><th scope="col">Reference</th></tr></thead>
<tbody>${documents.map(({ file, title, about }) => {
      const reference = file.replace(/\.yml$/, ".html");
      return html`<tr><th scope="row"><a href="/docs/${file}">${file}</a><br><span class="hint">${title}</span></th><td>${about}</td><td>${available.reference.has(reference) ? html`<a href="/docs/reference/${reference}">Read ${title}</a>` : html`Not built (<code>npm run build:docs</code>)`}</td></tr>`;
    })}</tbody></table></div>
</section>`,
  );
}

/**
 * A page made from a file `npm run generate` writes: rendered once per version of the file (it
 * rewrites it, requests only read it), and no page while the file is missing.
 */
function pageOfGeneratedFile(file: string, render: (text: string) => string): RequestHandler {
  let rendered: { mtimeMs: number; page: string } | undefined;
  return (_req, res, next) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return next();
    if (rendered?.mtimeMs !== stats.mtimeMs) rendered = { mtimeMs: stats.mtimeMs, page: render(readFileSync(file, "utf8")) };
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(rendered.page);
  };
}

/** `portalUrl`: where people reach the dashboard, for the install command the page shows. */
export function registerDeveloperPortal(app: Express, files: PortalFiles, dashboard: Dashboard, portalUrl: string): void {
  const listed = (directory: string, wanted: (file: string) => boolean) =>
    new Set(existsSync(directory) ? readdirSync(directory).filter(wanted) : []);
  // Read at each request: `npm run build:docs` while the server runs adds pages without a restart.
  const clientFiles = () => listed(files.client, (file) => file === LATEST_CLIENT_TARBALL || clientTarballVersion(file) !== undefined);
  const available = (): Available => ({
    documents: listed(files.documents, (file) => file.endsWith(".yml")),
    reference: listed(files.reference, (file) => file.endsWith(".html")),
    client: clientFiles(),
  });
  const baseUrl = portalUrl.replace(/\/$/, "");
  app.get("/docs", (_req, res) => res.redirect(301, "/docs/"));
  app.get("/docs/", (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(portalPage(available(), dashboard, baseUrl));
  });
  app.get(
    "/docs/rules",
    pageOfGeneratedFile(files.rules ?? DEFAULT_PORTAL_FILES.rules!, (text) => {
      const { families } = JSON.parse(text) as { families: CatalogueFamily[] };
      return rulesPage(families);
    }),
  );
  app.get(
    "/docs/changelog",
    pageOfGeneratedFile(files.changelog ?? DEFAULT_PORTAL_FILES.changelog!, (text) =>
      page("Changelog", html`<h1>Changelog</h1>\n${new Html(text)}`),
    ),
  );
  app.get("/docs/:file", (req, res, next) => {
    const file = String(req.params.file);
    // Only the files listed: a name is looked up, never joined into a path as given.
    if (!available().documents.has(file)) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.type("application/yaml; charset=utf-8").sendFile(file, { root: files.documents, dotfiles: "deny" });
  });
  app.get("/docs/reference/:file", (req, res, next) => {
    const file = String(req.params.file);
    if (!available().reference.has(file)) return next();
    res.setHeader("Content-Security-Policy", REFERENCE_POLICY);
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").sendFile(file, { root: files.reference, dotfiles: "deny" });
  });
  app.get("/docs/client/:file", (req, res, next) => {
    const file = String(req.params.file);
    if (!clientFiles().has(file)) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.attachment(file).type("application/gzip").sendFile(file, { root: files.client, dotfiles: "deny" });
  });
  // Anything else under /docs/ is no page of the portal, signed in or not.
  app.use("/docs", (_req, res) => {
    res
      .status(404)
      .type("html")
      .send(page("Not found", html`<h1>Page not found</h1><p><a href="/docs/">Go to the developer portal</a></p>`));
  });
}
