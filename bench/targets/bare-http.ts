/** The practical limit: node:http answering a fixed JSON body of the same size as the domain detail. */
import { createServer } from "node:http";
import { FIXED_BODY, servingLine } from "./fixed-body.js";

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json" }).end(FIXED_BODY));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(servingLine((server.address() as { port: number }).port)));
