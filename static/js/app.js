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
  // A write whose answer was lost is sent again (table.js, calls.js) with what it first
  // sent, not the form as it is now: its request key stands for that first body, so an
  // answer changed meanwhile must never ride on it. Sent through htmx's own "submit"
  // handler, which a plain event reaches in every browser of the floor (form.requestSubmit
  // came only with Safari 16).
  mahj.sentBody = function (config) {
    var body = [];
    var sent = config && config.parameters;
    if (sent && typeof sent.forEach === "function") {
      sent.forEach(function (value, name) { body.push([name, value]); });
    }
    return body;
  };
  mahj.resend = function (form, body) {
    if (!window.htmx || !form.isConnected) { return; }
    form.mahjResend = body;
    try {
      window.htmx.trigger(form, "submit");
    } finally {
      delete form.mahjResend;  // used by then (htmx configures the request at once)
    }
  };
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form || !form.mahjResend) { return; }
    var body = new FormData();
    form.mahjResend.forEach(function (pair) { body.append(pair[0], pair[1]); });
    event.detail.parameters = body;
    delete form.mahjResend;
  });

  // The button a tap submitted a form with, for the browsers without
  // SubmitEvent.submitter (Safari before 15.4): what the tap says ("Saving...") goes there.
  var tapped = null;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    tapped = button && button.form && button.type === "submit" ? button : null;
  }, true);
  mahj.submitter = function (cause) {
    if (!cause || cause.type !== "submit") { return null; }
    if ("submitter" in cause) { return cause.submitter; }
    return tapped && tapped.form === cause.target && tapped.isConnected ? tapped : null;
  };

  // A plain form (the director's clock, rulings, check-in) posted with the phone off the
  // Wi-Fi would leave the page for the browser's own "no internet" page, and with it the
  // form: it stays, and says that nothing was sent. Forms htmx sends have their own answer.
  // Not on the server's own machine: a laptop with no network at all says it is offline,
  // yet reaches its own server.
  var OFFLINE = "No connection: nothing was sent. Tap again when the Wi-Fi is back.";
  var LOCAL = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(location.hostname);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (LOCAL || navigator.onLine !== false || (form.method || "").toLowerCase() !== "post" ||
        form.closest("[hx-boost=true], [hx-post]") || form.hasAttribute("hx-post")) { return; }
    event.preventDefault();
    var note = form.querySelector(".offline-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "error offline-note";
      note.setAttribute("role", "alert");
      var button = mahj.submitter(event) || form.querySelector("[type=submit]");
      form.insertBefore(note, button && button.parentNode === form ? button : null);
    }
    note.textContent = OFFLINE;
  });
  window.addEventListener("online", function () {
    document.querySelectorAll(".offline-note").forEach(function (note) {
      note.parentNode.removeChild(note);
    });
  });

  document.addEventListener("live:stop", function () {
    var poll = document.getElementById("live");
    if (poll) { poll.parentNode.removeChild(poll); }
  });
})();
