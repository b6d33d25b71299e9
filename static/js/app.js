// MahjTable's small shared script. No framework; no inline scripts (the CSP forbids them).
// Area scripts (clock.js, ...) live beside this file.
(function () {
  "use strict";
  // After an htmx swap that brings new content, move focus to an element that asks for it,
  // so screen-reader users hear the result of their tap.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    var focus = target && target.querySelector && target.querySelector("[data-focus]");
    if (focus) { focus.focus(); }
  });
})();
