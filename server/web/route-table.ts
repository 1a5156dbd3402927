/**
 * The pages of an HTML front door as data: each path with its method's handlers, as
 * server/api/handlers/index.ts lists the API's operations. A handler is an exported function of its
 * page's module, so it can be read, tested and found by name; the front door mounts its tables in
 * the order of its request ladder (server/dashboard/dashboard-app.ts, server/embed/embed-app.ts).
 */
import type { Express, Request, RequestHandler, Response } from "express";

/** Express 5 passes a rejected promise on to the error pages. */
export type PageHandler = (req: Request, res: Response) => unknown;

export interface PageMethods {
  get?: PageHandler;
  post?: PageHandler;
}

/** By path, in the order they are matched: a fixed path before a parameter's (`/webhooks/new` before `/webhooks/:endpointId`). */
export type RouteTable = Readonly<Record<string, PageMethods>>;

/** Mounts the tables in their order; `beforePosts` run ahead of each POST's handler (a form's checks). */
export function mountRoutes(app: Express, tables: readonly RouteTable[], beforePosts: readonly RequestHandler[] = []): void {
  for (const table of tables)
    for (const [path, { get, post }] of Object.entries(table)) {
      if (get) app.get(path, get);
      if (post) app.post(path, ...beforePosts, post);
    }
}
