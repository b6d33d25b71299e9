// "No connection" for every page with live parts: a poll that fails shows one calm line at
// the top; the next poll that gets an answer clears it. Kept apart from the polling itself
// (any element with a timed hx-trigger, or any GET htmx sends), so the live parts can change
// how they poll and this still works.
(function () {
  "use strict";
  // Said of what the page shows: a clock that ticks on its own from the last answer, or
  // (the standings, the leaders, a player's scores) what was true at the last answer.
  var CLOCK_TEXT = "No connection: the clock may be behind. Trying again\u2026";
  var PAGE_TEXT = "No connection: this page may be out of date. Trying again\u2026";

  function text() {
    return document.querySelector("[data-clock], [data-remaining]") ? CLOCK_TEXT : PAGE_TEXT;
  }

  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    var trigger = elt && elt.getAttribute && (elt.getAttribute("hx-trigger") || "");
    var verb = event.detail && event.detail.requestConfig && event.detail.requestConfig.verb;
    return /\bevery\b/.test(trigger || "") || verb === "get";
  }

  function banner() {
    var box = document.getElementById("offline-banner");
    if (!box) {
      box = document.createElement("p");
      box.id = "offline-banner";
      box.className = "offline-banner";
      box.setAttribute("role", "status");
      box.hidden = true;
      document.body.insertBefore(box, document.body.firstChild);
    }
    return box;
  }

  function show() {
    var box = banner();
    var words = text();
    if (box.textContent !== words) { box.textContent = words; }
    box.hidden = false;
  }

  function clear() {
    var box = document.getElementById("offline-banner");
    if (box && !box.hidden) { box.hidden = true; }
  }

  document.addEventListener("htmx:sendError", function (event) {
    if (isPoll(event)) { show(); }
  });
  document.addEventListener("htmx:timeout", function (event) {
    if (isPoll(event)) { show(); }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (isPoll(event) && status >= 500) { show(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (isPoll(event) && xhr && xhr.status > 0 && xhr.status < 500) { clear(); }
  });
  window.addEventListener("offline", show);
})();
