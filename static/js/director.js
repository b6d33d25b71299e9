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
  // Creating a tournament: when the chosen rule set has a mini tournament (Destination's
  // rounds 10-12), suggest its rounds in the empty boxes.
  var preset = document.getElementById("preset");
  var mini = document.querySelector("[data-mini-suggest]");
  function suggestMini() {
    if (!preset || !mini) { return; }
    var on = preset.value === mini.getAttribute("data-mini-suggest");
    var first = document.getElementById("mini_first");
    var last = document.getElementById("mini_last");
    if (first) { first.placeholder = on ? mini.getAttribute("data-mini-first") : ""; }
    if (last) { last.placeholder = on ? mini.getAttribute("data-mini-last") : ""; }
  }
  if (preset) { preset.addEventListener("change", suggestMini); suggestMini(); }
  // Show print buttons only when the script runs (they need it).
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
  });
})();
