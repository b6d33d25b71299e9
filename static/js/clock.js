// The round clock's countdown (templates/clock/_clock.html). No framework.
//
// The server sends the seconds remaining; this script counts down from them using the
// browser's monotonic clock (performance.now), measured from when that answer arrived.
// The phone's own wall clock (Date) is never used, so a phone set to the wrong time
// still shows the room's time. The poll (htmx, every POLL_SECONDS) carries state changes;
// each poll also sends what this countdown shows ("shown"), and the server sends a fresh
// clock if it has drifted (a phone that slept), else 204.
//
// Events for other scripts: "clock:time" (bubbles from the clock) when a running clock
// reaches zero while this page watches it; the display page plays its chime on it.
(function () {
  "use strict";
  if (window.mahjClock) { return; }  // the partial may bring this script more than once

  var WARNINGS = [[0, "clock--time", "Time is up: stop play and enter your scores"],
                  [60, "clock--warn-1", "1 minute or less"],
                  [300, "clock--warn-5", "5 minutes or less"],
                  [600, "clock--warn-10", "10 minutes or less"]];
  var CLASSES = WARNINGS.map(function (w) { return w[1]; });
  var bases = new WeakMap();      // clock element -> {remaining, at}
  var sawRunning = {};            // round number -> a running clock was shown here
  var timeCalled = {};            // round number -> "clock:time" already fired

  var text = window.mahj.clockText;

  function arrivedAt() {
    // For the page itself: when its response started arriving; else now (a swap).
    if (!window.mahjClock.loaded) {
      var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
      if (nav && nav.responseStart > 0) { return nav.responseStart; }
    }
    return performance.now();
  }

  function base(clock) {
    var known = bases.get(clock);
    if (!known) {
      known = {remaining: parseInt(clock.getAttribute("data-remaining"), 10) || 0,
               at: arrivedAt()};
      bases.set(clock, known);
      var round = clock.getAttribute("data-round");
      var state = clock.getAttribute("data-state");
      if (state === "running" && known.remaining > 0) { sawRunning[round] = true; }
      if (state === "time_up" && sawRunning[round]) { fireTime(clock, round); }
    }
    return known;
  }

  function left(clock) {
    var known = base(clock);
    if (clock.getAttribute("data-state") !== "running") { return known.remaining; }
    var elapsed = Math.floor((performance.now() - known.at) / 1000);
    return Math.max(0, known.remaining - elapsed);
  }

  function fireTime(clock, round) {
    if (timeCalled[round]) { return; }
    timeCalled[round] = true;
    clock.dispatchEvent(new CustomEvent("clock:time", {bubbles: true, detail: {round: round}}));
  }

  function show(clock) {
    if (clock.getAttribute("data-state") !== "running") { base(clock); return; }
    var seconds = left(clock);
    var time = clock.querySelector("[data-clock-time]");
    var status = clock.querySelector("[data-clock-status]");
    var level = null;
    for (var i = 0; i < WARNINGS.length; i++) {
      if (seconds <= WARNINGS[i][0]) { level = WARNINGS[i]; break; }
    }
    var wanted = seconds === 0 ? "Time" : text(seconds);
    if (time && time.textContent !== wanted) { time.textContent = wanted; }
    var words = level ? level[2] : "Running";
    if (status && status.textContent !== words) { status.textContent = words; }
    CLASSES.forEach(function (name) {
      clock.classList.toggle(name, !!level && level[1] === name);
    });
    if (seconds === 0) {
      var round = clock.getAttribute("data-round");
      if (sawRunning[round] && !timeCalled[round]) {
        fireTime(clock, round);
        // Ask the server soon, so the page learns "time up" (and its offers) at once.
        window.setTimeout(function () { sync(clock); }, 1500);
      }
    }
  }

  function sync(clock) {
    if (window.htmx && document.body.contains(clock)) { window.htmx.trigger(clock, "clock:sync"); }
  }

  // A clock that is a part of its page's one poll (data-live) asks through that poll.
  document.addEventListener("clock:sync", function (event) {
    var poll = document.getElementById("live");
    if (poll && event.target.hasAttribute && event.target.hasAttribute("data-live")) {
      window.htmx.trigger(poll, "live:sync");
    }
  });

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(show);
  }

  // Each poll says what the countdown shows, so the server can correct a drifted phone.
  document.addEventListener("htmx:configRequest", function (event) {
    var clock = event.detail.elt;
    if (clock && clock.id === "live") { clock = document.querySelector("[data-clock][data-live]"); }
    if (clock && clock.hasAttribute && clock.hasAttribute("data-clock")) {
      event.detail.parameters.shown = String(left(clock));
    }
  });

  // A clock swapped in by a poll counts from the moment it arrived.
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.querySelectorAll) { return; }
    if (elt.hasAttribute("data-clock")) { show(elt); }
    elt.querySelectorAll("[data-clock]").forEach(show);
  });

  // A phone coming back from sleep asks at once instead of waiting for the next poll.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.querySelectorAll("[data-clock]").forEach(sync);
    }
  });

  // A page restored from the back-forward cache also asks at once.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { document.querySelectorAll("[data-clock]").forEach(sync); }
  });

  // Parts marked data-keep-while-editing are not replaced while someone types in them.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-keep-while-editing")) {
      return;
    }
    var editing = target.contains(document.activeElement) &&
      /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    var typed = Array.prototype.some.call(
      target.querySelectorAll("input[type=text], input[type=number], textarea"),
      function (field) { return field.value !== field.defaultValue; });
    if (editing || typed) { event.detail.shouldSwap = false; }
  });

  window.mahjClock = {left: left, loaded: false};
  function start() {
    tick();
    window.mahjClock.loaded = true;
    window.setInterval(tick, 250);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
