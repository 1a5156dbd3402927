/** The sandbox: read and advance the partner's clock (with what fell due), reset its data behind a confirmation. */
import type { Request, Response } from "express";
import { ApiError } from "../../platform/errors.js";
import { advanceClockBy, clockView, resetSandbox } from "../../application/sandbox-actions.js";
import { choiceOf, textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf } from "./dashboard-context.js";
import { formErrors } from "../views/controls.js";
import { resetSandboxPage, sandboxPage, UNIT_SECONDS, type ClockUnit } from "../views/sandbox-view.js";
import type { RouteTable } from "../../web/route-table.js";

export async function showSandbox(req: Request, res: Response) {
  const request = memberOf(res);
  const message = req.query.done === "reset" ? "Your sandbox data is deleted and your clock is back to real time." : null;
  res
    .type("html")
    .send(sandboxPage({ chrome: request.chrome("sandbox"), clock: clockView(request.services, request.partner.id), message }));
}

export async function moveSandboxClock(req: Request, res: Response) {
  const request = memberOf(res);
  const body = req.body as FormBody;
  const values = { amount: textOf(body, "amount"), unit: choiceOf(body, "unit", Object.keys(UNIT_SECONDS) as ClockUnit[]) };
  const refuse = (message: string) =>
    res
      .status(422)
      .type("html")
      .send(
        sandboxPage({
          chrome: request.chrome("sandbox"),
          clock: clockView(request.services, request.partner.id),
          values,
          errors: formErrors({ amount: message }),
        }),
      );
  if (!/^\d{1,9}$/.test(values.amount) || Number(values.amount) < 1) return refuse("Enter a whole number of at least 1.");
  try {
    const advanced = await advanceClockBy(
      request.services,
      request.partner.id,
      Number(values.amount) * UNIT_SECONDS[values.unit],
      "amount",
    );
    res.type("html").send(sandboxPage({ chrome: request.chrome("sandbox"), clock: advanced, changes: advanced.changes, values }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    refuse(error.message);
  }
}

export async function showSandboxReset(_req: Request, res: Response) {
  const request = memberOf(res);
  const { total } = await request.services.store.listUsers(request.partner.id, { limit: 1, offset: 0, sort: "created_at", order: "asc" });
  res.type("html").send(resetSandboxPage(request.chrome("sandbox"), total));
}

export async function resetSandboxFromForm(_req: Request, res: Response) {
  const request = memberOf(res);
  await resetSandbox(request.services, request.partner.id);
  res.redirect(303, "/sandbox?done=reset");
}

export const SANDBOX_ROUTES: RouteTable = {
  "/sandbox": { get: showSandbox },
  "/sandbox/clock": { post: moveSandboxClock },
  "/sandbox/reset": { get: showSandboxReset, post: resetSandboxFromForm },
};
