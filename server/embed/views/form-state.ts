/** What a form of the embedded interface shows again after a refusal: the values sent and the errors next to their fields. */
import type { FormErrors } from "../../web/controls.js";

export interface FormState {
  values: Record<string, string>;
  errors: FormErrors;
}
