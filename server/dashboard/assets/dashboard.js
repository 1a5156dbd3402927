// Progressive enhancement of the partner dashboard: every form works without this file.

// Bring the outcome of the last action into view and to the screen reader: an error summary, else a notice or a result.
document.addEventListener("DOMContentLoaded", () => {
  const target = document.querySelector(".error-summary") || document.querySelector(".notice") || document.querySelector(".result");
  if (target) target.focus();
});

// Ask before destructive one-button forms that have no confirmation page.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// Copy buttons of secrets shown once; without a clipboard the value is selected for the user to copy.
document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  const status = document.querySelector(`[data-copy-status="${button.dataset.copy}"]`);
  if (!field) return;
  try {
    await navigator.clipboard.writeText(field.value);
    if (status) status.textContent = "Copied to the clipboard.";
  } catch {
    field.focus();
    field.select();
    if (status) status.textContent = "Selected: press Ctrl+C or Cmd+C to copy.";
  }
});

// The key form: a full-access key takes no scopes or restrictions, so while "Full access" is chosen they are
// hidden and not sent (a disabled control is not), rather than refused for values the member cannot see.
function showKeyAccess() {
  const restrictedOnly = document.querySelector("[data-restricted-only]");
  const restricted = document.querySelector('input[name="kind"][value="restricted"]');
  if (!restrictedOnly || !restricted) return;
  restrictedOnly.hidden = !restricted.checked;
  for (const control of restrictedOnly.querySelectorAll("input, textarea")) control.disabled = !restricted.checked;
}
document.addEventListener("DOMContentLoaded", showKeyAccess);
document.addEventListener("change", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.name === "kind") showKeyAccess();
});
