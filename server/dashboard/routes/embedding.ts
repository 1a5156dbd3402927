/** Who may frame the embedded interface, per environment: stored for every instance's embed host to read. */
import type { Express } from "express";
import { parseEmbedOrigin } from "../../framing/framing.js";
import { textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "../dashboard-context.js";
import { embeddingPage, MAX_FRAMING_ORIGINS } from "../views/embedding-view.js";

const configuredOf = (request: MemberRequest) => request.dashboard.services.deployment.embedOrigins.get(request.partner.id) ?? [];

export function registerEmbeddingRoutes(app: Express): void {
  app.get("/embedding", async (req, res) => {
    const request = memberOf(res);
    const { deployment, persistence } = request.dashboard.services;
    const origins = await persistence.framingOrigins.originsOf(request.partner.id, deployment.environment);
    res.type("html").send(
      embeddingPage({
        chrome: request.chrome("embedding"),
        configured: configuredOf(request),
        origins: origins.join("\n"),
        message: req.query.done === "saved" ? "Saved: pages of the embedded interface opened from now on allow these origins." : null,
      }),
    );
  });

  app.post("/embedding", async (req, res) => {
    const request = memberOf(res);
    const { deployment, persistence } = request.dashboard.services;
    // Line breaks separate origins: the form's one field, read raw rather than as one line of text.
    const raw = (req.body as FormBody).origins;
    const text = typeof raw === "string" ? raw : "";
    textOf({ origins: Array.isArray(raw) ? raw : text.replace(/\r?\n/g, " ") }, "origins");
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    const problems: string[] = [];
    const origins: string[] = [];
    for (const line of lines) {
      try {
        origins.push(parseEmbedOrigin(line));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    if (origins.length > MAX_FRAMING_ORIGINS) problems.push(`At most ${MAX_FRAMING_ORIGINS} origins.`);
    if (problems.length > 0) {
      res
        .status(422)
        .type("html")
        .send(
          embeddingPage({
            chrome: request.chrome("embedding"),
            configured: configuredOf(request),
            origins: text,
            errors: { fields: { origins: problems[0]! }, summary: problems },
          }),
        );
      return;
    }
    await persistence.framingOrigins.setOrigins(request.partner.id, deployment.environment, [...new Set(origins)]);
    res.redirect(303, "/embedding?done=saved");
  });
}
