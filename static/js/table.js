// The table's pages: progressive steps, quick card values, and keeping East's entry when
// a request fails. No framework; the CSP forbids inline scripts.
(function () {
  "use strict";
  // With JavaScript, later steps stay hidden until the earlier ones are answered (CSS).
  document.documentElement.classList.add("js");

  // Let htmx swap a refused save (422: fix at the field) or a conflict (409: the current
  // sheet) into the page, as it does a success; other errors keep the page as it is.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 422 || status === 409) {
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

  function say(text) {
    var box = document.getElementById("send-status");
    if (box) { box.textContent = text; }
  }
  document.addEventListener("htmx:sendError", function () {
    say("Not sent: no connection. Your entry is kept here; tap Save again when the Wi-Fi is back.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status !== 422 && status !== 409) {
      say("The server could not save this (error " + status + "). Your entry is kept; try again.");
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { say(""); }
  });

  // After a step is answered, bring the next question into view (East keeps one thumb on
  // the buttons instead of scrolling). Only when it is below the fold; focus stays put.
  document.addEventListener("htmx:afterSettle", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "entry") { return; }
    var next = form.querySelector("[data-next]");
    if (!next || next.id === "step-outcome") { return; }
    var box = next.getBoundingClientRect();
    if (box.top > window.innerHeight * 0.6 || box.bottom < 0) {
      next.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });

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
