// The director's bar (templates/clock/_bar.html): the clock counts down and the oldest
// call's wait counts up in the browser between polls, from the seconds the server sent
// (measured with the monotonic clock, never the phone's wall clock). A poll never
// replaces the bar while its pause reasons are open under the director's thumb.
(function () {
  "use strict";
  if (window.mahjBar) { return; }  // a poll answer may bring this script again
  window.mahjBar = true;
  var seen = new WeakMap();

  function text(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function elapsed(el) {
    if (!seen.has(el)) { seen.set(el, performance.now()); }
    return (performance.now() - seen.get(el)) / 1000;
  }

  function tick() {
    document.querySelectorAll("[data-bar-remaining]").forEach(function (el) {
      var left = Number(el.getAttribute("data-bar-remaining")) - elapsed(el);
      var wanted = left <= 0 ? "Time" : text(left);
      if (el.textContent !== wanted) { el.textContent = wanted; }
    });
    document.querySelectorAll("[data-bar-since]").forEach(function (el) {
      var wanted = text(Number(el.getAttribute("data-bar-since")) + elapsed(el));
      if (el.textContent !== wanted) { el.textContent = wanted; }
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "director-bar" && target.querySelector("details[open]")) {
      event.detail.shouldSwap = false;
    }
  });

  // A change made on the queue (a claim, a release) shows in the bar at once.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    var bar = document.getElementById("director-bar");
    if (bar && target && target.id === "queue" && window.htmx) {
      window.htmx.trigger(bar, "bar:sync");
    }
  });

  // Escape closes the pause reasons, as a menu would.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var open = document.querySelector("#director-bar details[open]");
    if (open) { open.open = false; open.querySelector("summary").focus(); }
  });

  window.setInterval(tick, 500);
})();
