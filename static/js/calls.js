// Calling the director: waits that tick in the browser from the seconds the server sent,
// the round clock beside each call, plain answers (409/422/429) swapped in place, and on
// the staff's queue a sound and a vibration for each new call once sound is enabled.
(function () {
  "use strict";
  var seenAt = new WeakMap();

  var clockText = window.mahj.clockText;

  function elapsed(el) {
    if (!seenAt.has(el)) { seenAt.set(el, Date.now()); }
    return (Date.now() - seenAt.get(el)) / 1000;
  }

  function tick() {
    document.querySelectorAll(".wait-text[data-since]").forEach(function (el) {
      var seconds = Number(el.dataset.since) + elapsed(el);
      var text = (el.dataset.prefix || "") + clockText(seconds);
      if (el.dataset.levels) {
        var level = seconds >= 300 ? 2 : seconds >= 120 ? 1 : 0;
        text += level === 2 ? " · over 5 min" : level === 1 ? " · over 2 min" : "";
        var card = el.closest(".call-card");
        if (card) {
          card.classList.remove("wait-level-0", "wait-level-1", "wait-level-2");
          card.classList.add("wait-level-" + level);
        }
      }
      if (el.textContent !== text) { el.textContent = text; }
    });
    document.querySelectorAll(".clock-left[data-remaining]").forEach(function (el) {
      var text = clockText(Number(el.dataset.remaining) - elapsed(el));
      if (el.textContent !== text) { el.textContent = text; }
    });
  }

  // Refusals come back as 409/422/429 with the part to show; swap them like a success.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var target = event.detail.target;
    var responseURL = event.detail.xhr.responseURL || "";
    var queue = target && (target.id === "queue" ||
                           (target.id === "live" && document.getElementById("queue")));
    if (queue && responseURL.indexOf("/auth/sign-in") !== -1) {
      // Signed out meanwhile (a tap, or the page's poll): go to the sign-in page rather
      // than showing it in the queue, or nothing at all.
      event.detail.shouldSwap = false;
      window.location.assign(responseURL);
      return;
    }
    var plain = status === 409 || status === 422 || status === 429;
    if (target && ((plain && (target.id === "table-call" || target.id === "queue")) ||
                   (status === 404 && target.id === "table-call"))) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A tap in the table's bar that never reached the server (or whose answer was lost) is
  // said at once, in the bar, with the button ready to try again. The form keeps its
  // request key, so a retry whose first try did arrive places no second call.
  function barFailed(event, text) {
    var form = event.detail.elt && event.detail.elt.closest &&
      event.detail.elt.closest("#table-call form");
    if (!form) { return; }
    var bar = document.getElementById("table-call");
    var old = bar.querySelector(".call-unsent");
    if (old) { old.remove(); }
    var note = document.createElement("p");
    note.className = "error call-error call-unsent";
    note.setAttribute("role", "alert");
    note.textContent = text;
    form.parentNode.insertBefore(note, form);
    var button = form.querySelector(".call-button");
    if (button) { button.textContent = "Try the call again now"; }
  }
  // A lost request and a lost answer look the same from here: the call may well have
  // reached the director. Say so, and send it again (the same request key: never a second
  // call) until an answer comes; the answer, or the page's poll once the call is in,
  // replaces this note with the call's real state ("The director has been called").
  // The call sent again is the call first sent (app.js: its key stands for that body).
  var callRetry = null, callBody = null;
  function retryCall(form, config) {
    if (callRetry) { window.clearInterval(callRetry); }
    callBody = window.mahj.sentBody(config);
    callRetry = window.setInterval(function () {
      if (!form.isConnected) { window.clearInterval(callRetry); callRetry = null; return; }
      if (navigator.onLine !== false) { window.mahj.resend(form, callBody); }
    }, 5000);
  }
  window.addEventListener("online", function () {
    var form = document.querySelector("#table-call form.call-form");
    if (callRetry && form) { window.mahj.resend(form, callBody); }
  });
  document.addEventListener("htmx:sendError", function (event) {
    var placing = event.detail.elt && event.detail.elt.classList &&
      event.detail.elt.classList.contains("call-form");
    barFailed(event, placing
      ? "No answer yet: the Wi-Fi may be down, so the director may not have your call. " +
        "This phone keeps trying by itself; if nobody comes, raise your hand."
      : "Not sent: no connection. Tap the button again.");
    if (placing) { retryCall(event.detail.elt, event.detail.requestConfig); }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 500) {
      barFailed(event, "The call was NOT sent (server error " + status + "). Tap to try " +
        "again, or raise your hand for a director.");
    }
  });

  // ---- sound and vibration on the staff's queue
  var sound = null, known = null;

  function callIds() {
    var ids = new Set();
    document.querySelectorAll("#queue [data-call-id]").forEach(function (el) {
      ids.add(el.dataset.callId);
    });
    return ids;
  }

  // Screen readers hear changes through a live region that stays on the page (the swapped
  // parts are replaced whole, and a freshly inserted live region is often not read).
  function announce(name, text) {
    var region = document.querySelector('[data-announcer="' + name + '"]');
    if (region && text && region.textContent !== text) { region.textContent = text; }
  }

  function alertNewCalls() {
    var ids = callIds(), fresh = [];
    ids.forEach(function (id) { if (known && !known.has(id)) { fresh.push(id); } });
    known = ids;
    if (!fresh.length) { return; }
    announce("queue", fresh.map(function (id) {
      var title = document.getElementById("call-" + id + "-title");
      return "New call: " + (title ? title.textContent : "a table");
    }).join(". "));
    var button = document.getElementById("enable-sound");
    if (button) { button.dataset.alerts = String(Number(button.dataset.alerts || 0) + 1); }
    if (sound) {
      sound.currentTime = 0;
      var played = sound.play();
      if (played && played.catch) { played.catch(function () {}); }
      if (navigator.vibrate) { navigator.vibrate([300, 150, 300]); }
    }
  }

  // The director's bar says whether a new call will ring on this page.
  function showSound() {
    document.querySelectorAll("[data-bar-sound]").forEach(function (el) {
      var wanted = sound ? "Sound on" : "Sound off";
      if (el.textContent !== wanted) { el.textContent = wanted; }
      el.classList.toggle("is-on", Boolean(sound));
    });
  }

  function setUpSound() {
    var button = document.getElementById("enable-sound");
    if (!button) { return; }
    known = callIds();
    button.hidden = false;
    button.addEventListener("click", function () {
      if (sound) {
        sound = null;
        button.classList.remove("is-on");
        button.textContent = "Enable sound";
        showSound();
        return;
      }
      sound = new Audio(button.dataset.sound);
      sound.preload = "auto";
      // Playing once inside the tap is what lets the browser play it later.
      var played = sound.play();
      if (played && played.catch) { played.catch(function () {}); }
      if (navigator.vibrate) { navigator.vibrate(100); }
      button.classList.add("is-on");
      button.textContent = "Sound on (tap to mute)";
      showSound();
    });
  }

  // htmx fires afterSettle on each element it swapped in (event.target), the queue
  // brought out of band by the page's poll included.
  document.addEventListener("htmx:afterSettle", function (event) {
    var settled = event.target;
    if (settled && settled.id === "queue") { alertNewCalls(); }
    if (settled && settled.id === "director-bar") { showSound(); }
    if (settled && settled.id === "table-call") {
      announce("table-call", settled.dataset.announce);
    }
    tick();
  });

  // The page keeps room below equal to the table's bar (calls.css reads the variable), so
  // the fixed bar never covers the end of the sheet, whatever state it shows.
  function fitBar() {
    var bar = document.querySelector(".call-bar");
    if (!bar) { return; }
    var measure = function () {
      document.documentElement.style.setProperty(
        "--call-bar-height", Math.ceil(bar.getBoundingClientRect().height) + "px");
    };
    measure();
    if (window.ResizeObserver) { new ResizeObserver(measure).observe(bar); }
    else { document.addEventListener("htmx:afterSettle", measure); }
  }

  function start() {
    fitBar();
    setUpSound();
    tick();
    setInterval(tick, 1000);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
