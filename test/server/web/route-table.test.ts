/** Route tables (server/web/route-table.ts): mounted in their order, a form's checks ahead of each POST only. */
import express from "express";
import { describe, expect, it } from "vitest";
import { mountRoutes, type RouteTable } from "../../../server/web/route-table.js";

async function answers(app: express.Express, requests: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    const texts: string[] = [];
    for (const [method, path] of requests) texts.push(await (await fetch(`http://127.0.0.1:${port}${path}`, { method })).text());
    return texts;
  } finally {
    server.close();
  }
}

describe("mountRoutes", () => {
  it("matches a fixed path before a parameter's, table by table, and checks forms before POST handlers only", async () => {
    const first: RouteTable = {
      "/things/new": { get: (_req, res) => res.send("new") },
      "/things/:id": { get: (req, res) => res.send(`thing ${String(req.params.id)}`), post: (_req, res) => res.send("changed") },
    };
    const second: RouteTable = { "/things/:id": { get: (_req, res) => res.send("never") } };
    const app = express();
    mountRoutes(app, [first, second], [(_req, res, next) => (res.locals.checked = true) && next()]);
    app.use((_req, res) => res.status(404).send("none"));
    expect(
      await answers(app, [
        ["GET", "/things/new"],
        ["GET", "/things/7"],
        ["POST", "/things/7"],
        ["POST", "/things/new"],
      ]),
    ).toEqual(["new", "thing 7", "changed", "changed"]);
  });

  it("answers a POST only after the checks let it through", async () => {
    const app = express();
    mountRoutes(
      app,
      [{ "/form": { get: (_req, res) => res.send("page"), post: (_req, res) => res.send("sent") } }],
      [(_req, res) => void res.status(403).send("refused")],
    );
    expect(
      await answers(app, [
        ["GET", "/form"],
        ["POST", "/form"],
      ]),
    ).toEqual(["page", "refused"]);
  });
});
