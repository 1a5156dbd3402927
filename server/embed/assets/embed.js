// Progressive enhancement of the embedded interface: every form works without this file.

// Bring the outcome of the last action into view and to the screen reader: an error summary, else a notice.
document.addEventListener("DOMContentLoaded", () => {
  const target = document.querySelector(".error-summary") || document.querySelector(".notice");
  if (target) target.focus();
});

// The add form: the value's hint follows the chosen type (hints come from the page, in its language),
// and priority shows only for MX.
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-type-hints]")) {
    const hints = JSON.parse(form.dataset.typeHints);
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

// A template's preview shows its records with the values as they are typed; an empty field reads as
// its default, or else the words of its placeholder (both given by the page).
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-placeholders]")) {
    const details = form.closest("details");
    const preview = details?.querySelector(".template-records");
    if (!preview) continue;
    const placeholders = JSON.parse(form.dataset.placeholders);
    const valueInPreview = (name) => {
      if (name === "domain") return preview.dataset.domain;
      const field = form.elements.namedItem(`variables.${name}`);
      const value = field?.value.trim();
      return value || placeholders[name] || `%${name}%`;
    };
    const update = () => {
      for (const part of preview.querySelectorAll("[data-template]"))
        part.textContent = part.dataset.template.replace(/%([a-z_]+)%/g, (_match, name) => valueInPreview(name));
    };
    form.addEventListener("input", update);
    form.addEventListener("change", update);
  }
});
