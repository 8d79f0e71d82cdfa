// Arbiter: each time on a page in the reader's own zone (issue 17 §3).
// The server writes every time in the competition's zone, with its
// countdown; this adds "your time: …" beside each <time data-zone> whose
// zone is not the reader's. Without scripts the page reads as written.
(function () {
  "use strict";
  var reader;
  try {
    reader = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!reader) return;
  var format = new Intl.DateTimeFormat(undefined, {
    year: "numeric", month: "short", day: "numeric",
    hour: "2-digit", minute: "2-digit", timeZoneName: "short"
  });
  function localize() {
    var times = document.querySelectorAll("time[data-zone]:not([data-local])");
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      el.setAttribute("data-local", "");
      if (el.getAttribute("data-zone") === reader) continue;
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) continue;
      var note = document.createElement("span");
      note.className = "local-time";
      note.textContent = " (your time: " + format.format(at) + ")";
      // After the countdown when there is one: the time, how far, then
      // the reader's own.
      var after = el.nextElementSibling;
      if (!after || !after.classList.contains("countdown")) after = el;
      after.parentNode.insertBefore(note, after.nextSibling);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", localize);
  } else {
    localize();
  }
  document.addEventListener("htmx:afterSettle", localize);
})();
