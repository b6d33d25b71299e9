// Director pages: small comforts only; every page works without this script.
(function () {
  "use strict";
  // Buttons marked data-print print the page (the schedule, cards, poster).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) { event.preventDefault(); window.print(); }
  });
  // Ask before actions marked data-confirm (new table link, removing staff, withdrawing).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });
  // Show print buttons only when the script runs (they need it).
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
  });
})();
