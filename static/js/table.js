// The table's pages: progressive steps, quick card values, and keeping East's entry when
// a request fails. No framework; the CSP forbids inline scripts.
(function () {
  "use strict";
  // With JavaScript, later steps stay hidden until the earlier ones are answered (CSS).
  document.documentElement.classList.add("js");

  // Let htmx swap a refused save (422: fix at the field) or a conflict (409: the current
  // sheet) into the page, as it does a success, and a lookup's "no such number" (a boosted
  // form's 404, said at the field); other errors keep the page as it is.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 422 || status === 409 || (status === 404 && event.detail.boosted)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // What East typed wins over what a slower answer echoes back: keep the text boxes'
  // current values across a swap of the entry form (the server only ever echoes them).
  var typed = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = document.getElementById("entry");
    if (!form || event.detail.target !== form) { typed = null; return; }
    typed = {};
    form.querySelectorAll("input[type=text], textarea").forEach(function (box) {
      if (box.id) { typed[box.id] = box.value; }
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!typed) { return; }
    Object.keys(typed).forEach(function (id) {
      var box = document.getElementById(id);
      if (box) { box.value = typed[id]; }
    });
    typed = null;
  });

  // A failed request is reported where it was tapped: beside East's Save, or at the step
  // whose answer did not reach the server, with a way to send it again; or at the sheet's
  // other forms (the review's initials, West's check, Submit; time called) and the
  // players' lookups (tournament code, player number, Find me), which go through htmx
  // (hx-boost) so that the page stays, not the browser's "no internet" page.
  function place(event) {
    var config = event.detail.requestConfig;
    var cause = config && config.triggeringEvent;
    var tapped = cause && (window.mahj.submitter(cause) || cause.target);
    var form = document.getElementById("entry");
    if (!form || !tapped || !form.contains(tapped)) {
      // after a swap, event.detail.elt is the page's body: the form is the request's
      var other = config && config.elt.closest &&
        config.elt.closest("form[hx-boost], form[data-table-write]");
      return other && {form: other, spot: other, saving: true,
                       boosted: other.hasAttribute("hx-boost")};
    }
    var saving = cause.type === "submit";
    var spot = saving ? form.querySelector("#step-sign .actions")
                      : tapped.closest("fieldset.step, .step, fieldset") || form;
    return {form: form, spot: spot, saving: saving,
            after: saving ? null : tapped.closest(".choices")};
  }
  function clearNotes() {
    document.querySelectorAll(".send-note").forEach(function (note) { note.remove(); });
    var form = document.getElementById("entry");
    if (form) { delete form.dataset.unsent; }
  }
  function note(where, text, retryLabel) {
    clearNotes();
    var box = document.createElement("div");
    box.className = "send-note";
    box.setAttribute("role", "alert");
    var words = document.createElement("p");
    words.textContent = text;
    box.appendChild(words);
    if (!where.saving) {
      where.form.dataset.unsent = "1";
      var again = document.createElement("button");
      again.type = "button";
      again.className = "big";
      again.textContent = retryLabel;
      again.addEventListener("click", resendStep);
      box.appendChild(again);
    }
    if (where.saving) {
      // above the button, which stays in sight clear of the call bar (scroll-margin in
      // table.css): the note never pushes it under the bar
      if (where.spot.tagName === "FORM") {
        where.spot.insertBefore(box, where.spot.firstChild);
      } else { where.spot.parentNode.insertBefore(box, where.spot); }
      var button = where.spot.querySelector("button[type=submit], button:not([type])");
      (button || where.spot).scrollIntoView({block: "nearest"});
      return;
    }
    if (where.after && where.spot.contains(where.after)) {
      where.after.parentNode.insertBefore(box, where.after.nextSibling);
    } else { where.spot.appendChild(box); }
    // in sight, clear of the call bar (scroll-margin in table.css)
    box.scrollIntoView({block: "nearest"});
  }
  // Send the steps again as they are now (htmx listens for "change" on them).
  function resendStep() {
    var steps = document.querySelector("#entry .steps");
    if (steps && window.htmx) { window.htmx.trigger(steps, "change"); }
  }
  document.addEventListener("htmx:sendError", function (event) {
    var where = place(event);
    if (!where) { return; }
    if (where.saving) {
      // A lost request and a lost reply look the same from here: say both. A resend
      // carries the same key, so it never stores the game (or the initials) twice.
      note(where, "No answer from the server: the Wi-Fi may be down. " + (where.boosted
        ? "Tap again" + (where.form.method === "get" ? "."
          : ": if the first tap got through, it counts only once.")
        : "Your answers are kept. This phone tries again by itself; it counts once."));
      if (!where.boosted || where.form.method !== "get") { retryLater(where.form, event); }
    } else {
      note(where, "Not sent: no connection. Your answer is kept.", "Send this answer again");
    }
  });
  // A write whose answer was lost is sent again, with the same request key and the body
  // it first sent (app.js), until an answer comes: the server applies it once and answers
  // with the page as it now is ("Game 1 saved.", "Submitted 11:25"), which replaces the
  // "no answer" note.
  var retry = null;
  function retryLater(form, event) {
    var body = window.mahj.sentBody(event.detail.requestConfig);
    stopRetry();
    retry = {form: form, body: body, timer: window.setInterval(sendAgain, 5000)};
  }
  function stopRetry() {
    if (retry) { window.clearInterval(retry.timer); retry = null; }
  }
  // The form to send it from: the one tapped, or the one a step's answer swapped in for
  // it (East may tap an answer meanwhile); none once the page moved on.
  function retryForm() {
    if (retry.form.isConnected) { return retry.form; }
    var again = retry.form.id && document.getElementById(retry.form.id);
    if (again && again.tagName === "FORM") { retry.form = again; return again; }
    return null;
  }
  function sendAgain() {
    if (!retry || !retryForm()) { stopRetry(); return; }
    if (navigator.onLine === false) { return; }
    window.mahj.resend(retry.form, retry.body);
  }
  window.addEventListener("online", function () { if (retry) { sendAgain(); } });
  document.addEventListener("htmx:afterRequest", function (event) {
    // only the resent write's own answer (not the page's poll) ends the resending
    if (retry && event.detail.successful &&
        (event.detail.elt === retry.form || !retryForm())) { stopRetry(); }
  });

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    var where = place(event);
    if (!where || status === 422 || status === 409) { return; }
    note(where, "The server could not take this (error " + status + "). Your entry is " +
      "kept; try again.", "Send this answer again");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && place(event)) { clearNotes(); }
  });
  // A boosted form's answer replaces the page (its swap says show:none): show the page's
  // top, as a plain post would, or the refusal's reason where the page gives one
  // (autofocus, templates/table/_review.html), as its page load would.
  document.addEventListener("htmx:afterSettle", function (event) {
    var where = place(event);
    if (!where || !where.boosted) { return; }
    var reason = document.querySelector("[autofocus]");
    if (reason) { reason.focus(); reason.scrollIntoView({block: "center"}); }
    else { window.scrollTo(0, 0); }
  });

  // Tapping an answer that is already chosen sends nothing by itself (no change): after a
  // failed send it must, or East is stuck with a selected answer and no next question.
  document.addEventListener("click", function (event) {
    var form = document.getElementById("entry");
    var input = event.target.closest && event.target.closest("#entry .steps input");
    if (form && input && form.dataset.unsent && input.checked && input.type === "radio") {
      setTimeout(resendStep, 0);
    }
  });
  window.addEventListener("online", function () {
    // not while a save is sent again: the step's answer would replace it in flight
    // (hx-sync), and the save's answer brings the page as it is
    var form = document.getElementById("entry");
    if (form && form.dataset.unsent && !retry) { resendStep(); }
  });

  // An answered question folded to one line: a tap opens it again, in place, to change
  // the answer (a new answer sends the form; the answers fold again).
  document.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("#entry .answers button[data-step]");
    if (!chip) { return; }
    var step = document.getElementById("step-" + chip.dataset.step);
    if (!step) { return; }
    var open = step.classList.toggle("reopened");
    chip.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      var first = step.querySelector("input:checked") || step.querySelector("input");
      if (first) { first.focus({preventScroll: true}); }
    }
  });

  // A typed card value is sent once it reads as a whole card value: 20 to 150 in fives
  // ("8" waits for "85"; "10" for "100"), so a slow typist never sees a half-typed number
  // refused. Leaving the box sends whatever it holds (the "change" the form listens for).
  function wholeCardValue(text) {
    if (!/^[0-9]{2,3}$/.test(text)) { return false; }
    var value = parseInt(text, 10);
    return value >= 20 && value <= 150 && value % 5 === 0;
  }
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (box.id !== "value_other" || !wholeCardValue(box.value.trim())) { return; }
    box.dispatchEvent(new CustomEvent("value-typed", {bubbles: true}));
  });

  // "No dead hands" and a dead hand are two answers to one question.
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box.id === "no_dead" && box.checked) {
      document.querySelectorAll("#step-dead input[name=dead]").forEach(function (seat) {
        seat.checked = false;
      });
    } else if (box.name === "dead" && box.checked && box.closest("#step-dead")) {
      var none = document.getElementById("no_dead");
      if (none) { none.checked = false; }
    }
  }, true);

  // Every tapped button says at once that its request is under way.
  var BUSY_WORDS = {save: "Saving\u2026", other: "Sending\u2026"};
  document.addEventListener("htmx:beforeRequest", function (event) {
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var button = window.mahj.submitter(cause);
    if (!button || button.classList.contains("is-busy")) { return; }
    button.dataset.label = button.textContent;
    button.classList.add("is-busy");
    button.setAttribute("aria-busy", "true");
    button.textContent = button.closest("#entry") ? BUSY_WORDS.save : BUSY_WORDS.other;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var button = window.mahj.submitter(cause);
    if (!button || !button.classList.contains("is-busy") || !button.isConnected) { return; }
    button.classList.remove("is-busy");
    button.removeAttribute("aria-busy");
    if (button.dataset.label) { button.textContent = button.dataset.label; }
  });

  // The chosen answers are marked by a class as well as :has() (table.css), which Safari
  // reads only from 15.4: the server marks them, and this keeps the marks as East taps.
  function markChecked() {
    document.querySelectorAll("label.choice, label.chip").forEach(function (label) {
      var input = label.querySelector("input");
      if (input) { label.classList.toggle("is-checked", input.checked); }
    });
  }
  document.addEventListener("change", markChecked);
  document.addEventListener("input", markChecked);

  // A quick card value and a typed one are the same answer: choosing one clears the other.
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "value" && target.type === "radio") {
      var other = document.getElementById("value_other");
      if (other) { other.value = ""; }
    }
  }, true);
  document.addEventListener("input", function (event) {
    if (event.target.id === "value_other" && event.target.value) {
      document.querySelectorAll("input[name=value]").forEach(function (radio) {
        radio.checked = false;
      });
    }
  }, true);
})();
