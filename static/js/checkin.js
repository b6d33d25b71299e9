// Check-in: the list narrows as a name or number is typed, without a round trip; without
// this script the search box is a plain GET form and works the same.
(function () {
  "use strict";
  var search = document.querySelector("[data-checkin-search]");
  if (!search) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll(".checkin-list li[data-number]"));
  var none = document.querySelector("[data-checkin-nomatch]");
  function found(row, query) {
    if (/^[0-9]+$/.test(query)) { return row.getAttribute("data-number").indexOf(query) === 0; }
    var name = row.getAttribute("data-name");
    if (name.indexOf(query) === 0) { return true; }
    return name.replace(/-/g, " ").split(/\s+/).some(function (word) {
      return word.indexOf(query) === 0;
    });
  }
  function narrow() {
    var query = search.value.trim().toLowerCase().replace(/\s+/g, " ");
    var shown = 0;
    rows.forEach(function (row) {
      var show = !query || found(row, query);
      row.hidden = !show;
      if (show) { shown += 1; }
      var link = row.querySelector("a");
      // The tap keeps the search, so "Not her" comes back to the same few rows.
      if (link) {
        var url = new URL(link.href, window.location.href);
        if (query) { url.searchParams.set("q", query); } else { url.searchParams.delete("q"); }
        link.href = url.toString();
      }
    });
    if (none) { none.hidden = shown > 0; }
  }
  search.addEventListener("input", narrow);
  if (search.value) { narrow(); }
})();
