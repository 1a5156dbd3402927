/**
 * Express 5 alone: the three workloads' routes answering the fixed body, the JSON body of writes
 * parsed, nothing else. The ceiling of any server built on Express on this machine, so the
 * results can say what share of the reference server's time is Express itself.
 */
import express from "express";
import { FIXED_BODY, servingLine } from "./fixed-body.js";

const app = express();
// As the reference server: no ETag hashing, no X-Powered-By.
app.set("etag", false);
app.disable("x-powered-by");
app.use(express.json());
const answer = (status: number) => (_req: express.Request, res: express.Response) =>
  void res.status(status).type("application/json").send(FIXED_BODY);
app.get("/api/v1/domains/:domain_id", answer(200));
app.post("/api/v1/domains/:domain_id/dns", answer(201));
app.get("/api/v1/users", answer(200));
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () =>
  console.log(servingLine((server.address() as { port: number }).port)),
);
