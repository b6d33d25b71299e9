// The director's bar (templates/clock/_bar.html): the clock counts down and the oldest
// call's wait counts up in the browser between polls, from the seconds the server sent
// (measured with the monotonic clock, never the phone's wall clock). A poll never
// replaces the bar while its pause reasons are open under the director's thumb.
(function () {
  "use strict";
  if (window.mahjBar) { return; }  // a poll answer may bring this script again
  window.mahjBar = true;
  var seen = new WeakMap();

  var text = window.mahj.clockText;

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

  // The bar comes out of band with its page's one poll; kept as it is, it still shows
  // its old version, so the next poll brings it again once the reasons are closed.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "director-bar" && target.querySelector("details[open]")) {
      event.detail.shouldSwap = false;
    }
  });

  // A change made on the queue (a claim, a release) shows in the bar at once: the page's
  // poll asks now rather than at its next tick.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    var poll = document.getElementById("live");
    if (poll && target && target.id === "queue" && document.getElementById("director-bar")
        && window.htmx) {
      window.htmx.trigger(poll, "live:sync");
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
