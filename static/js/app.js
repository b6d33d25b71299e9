// MahjTable's small shared script. No framework; no inline scripts (the CSP forbids them).
// Area scripts (clock.js, ...) live beside this file.
(function () {
  "use strict";
  // Seconds as M:SS (minutes not capped at 59), the twin of core.words.clock_text: the
  // round clock, the director's bar and the waits of the calls all count with it.
  var mahj = window.mahj = window.mahj || {};
  mahj.clockText = function (seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  };

  // After an htmx swap that brings new content, move focus to an element that asks for it,
  // so screen-reader users hear the result of their tap.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    var focus = target && target.querySelector && target.querySelector("[data-focus]");
    if (focus) { focus.focus(); }
  });

  // The page's one poll (templates/live/_poll.html) carries the version of every live
  // part as the page shows it now, so a lost or late answer is corrected by the next one.
  document.addEventListener("htmx:configRequest", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "live") { return; }
    document.querySelectorAll("[data-live]").forEach(function (part) {
      event.detail.parameters[part.getAttribute("data-live")] =
        part.getAttribute("data-live-version");
    });
  });
  // The link was rotated: the poll's 404 says so where the call bar was (out of band),
  // then the poll stops.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt && event.detail.elt.id === "live" &&
        event.detail.xhr.status === 404) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("live:stop", function () {
    var poll = document.getElementById("live");
    if (poll) { poll.parentNode.removeChild(poll); }
  });
})();
