/**
 * The partner side of the browser tests: the demo partner's page on an allowed origin (it asks the API
 * for a login_url and frames it), and on any origin `/frame?src=...`, a page framing a given URL (to
 * reopen a login_url, or to frame from an origin the partner did not allow).
 */
import type { RequestListener } from "node:http";
import { createDemoHostApp, type DemoHostOptions } from "../../../server/embed/demo-host.js";
import { escapeHtml } from "../../../server/web/html.js";

export function framePage(src: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner page</title></head><body><h1>Partner page</h1><iframe title="Domains" src="${escapeHtml(src)}" style="width: 960px; height: 900px"></iframe></body></html>`;
}

export function hostPages(demo?: DemoHostOptions): RequestListener {
  const demoApp = demo ? createDemoHostApp(demo) : null;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://host.invalid");
    if (url.pathname === "/frame") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(framePage(url.searchParams.get("src") ?? "about:blank"));
      return;
    }
    if (demoApp) demoApp(req, res);
    else res.writeHead(404).end();
  };
}
