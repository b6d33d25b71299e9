// The front desk: Enter in a game's row goes to the next game's first box, as a paper
// sheet is read; on the last game, to the initials tick. Without this script Enter
// checks the points (the form's first button) and Tab moves along as usual.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var box = event.target;
    var row = box.closest && box.closest("[data-desk-row]");
    if (!row || box.tagName === "BUTTON") { return; }
    event.preventDefault();
    var rows = Array.prototype.slice.call(document.querySelectorAll("[data-desk-row]"));
    var next = rows.slice(rows.indexOf(row) + 1).map(function (r) {
      return r.querySelector("input:not([type=hidden])");
    }).filter(Boolean)[0] || document.getElementById("initialled");
    if (next) { next.focus(); if (next.select) { next.select(); } }
  });
})();
