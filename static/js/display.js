// The big screen (templates/display/screen.html). No framework.
// Browsers play sound only after someone taps the page, so the screen shows
// "Tap to enable sound"; the tap plays the chime once (a sound check) and from then on
// the chime plays when the round clock reaches zero ("clock:time" from clock.js).
// The same tap asks the screen to stay awake, where the browser allows it.
(function () {
  "use strict";
  var enabled = false;
  var wakeLock = null;

  function chime() {
    var audio = document.getElementById("chime");
    if (!audio) { return; }
    try {
      audio.currentTime = 0;
      var played = audio.play();
      if (played && played.catch) { played.catch(function () {}); }
    } catch (error) { /* no audio device: the screen still shows "Time" */ }
  }

  function keepAwake() {
    if (wakeLock || !navigator.wakeLock) { return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () {});
  }

  function setUp() {
    var button = document.querySelector("[data-sound-toggle]");
    if (!button) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      enabled = !enabled;
      button.setAttribute("aria-pressed", enabled ? "true" : "false");
      button.textContent = enabled ? "Sound on (tap to mute)" : "Tap to enable sound";
      if (enabled) { chime(); keepAwake(); }
    });
    document.addEventListener("clock:time", function (event) {
      if (!enabled) { return; }
      // Marks the screen so people (and tests) can see the chime was played.
      document.body.setAttribute("data-chimed-round", event.detail && event.detail.round);
      chime();
    });
    document.addEventListener("visibilitychange", function () {
      if (enabled && document.visibilityState === "visible") { keepAwake(); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
