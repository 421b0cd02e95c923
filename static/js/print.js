// Printable pages: with JavaScript, a Print button beside the hint (the browser's Print works without it).
document.querySelectorAll("[data-print]").forEach(function (hint) {
  var button = document.createElement("button");
  button.type = "button";
  button.textContent = hint.dataset.print || "Print";  // the page's language
  button.className = "primary";
  button.addEventListener("click", function () { window.print(); });
  hint.replaceWith(button);
});
