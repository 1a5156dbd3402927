// Progressive enhancement of the embedded interface: every form works without this file.

// Bring the outcome of the last action into view and to the screen reader: an error summary, else a notice.
document.addEventListener("DOMContentLoaded", () => {
  const target = document.querySelector(".error-summary") || document.querySelector(".notice");
  if (target) target.focus();
});

// Ask before deleting.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// The record form: the content hint follows the chosen type (hints come from the page), and priority shows only for MX.
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-content-hints]")) {
    const hints = JSON.parse(form.dataset.contentHints);
    const type = form.querySelector("select[name=type]");
    if (!type) continue;
    const hint = form.querySelector("[data-field=content] .hint");
    const priority = form.querySelector("[data-field=priority]");
    const update = () => {
      if (hint && hints[type.value]) hint.textContent = hints[type.value];
      // A priority the user typed, or one the server refused, stays visible.
      if (priority)
        priority.hidden = type.value !== "MX" && !priority.querySelector("input").value && !priority.classList.contains("field-error");
    };
    type.addEventListener("change", update);
    update();
  }
});
