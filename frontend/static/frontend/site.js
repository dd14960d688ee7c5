// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";

  // Deadlines and times in the reader's own time zone; the UTC time stays in the title.
  document.querySelectorAll("time[data-local]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) {
      el.textContent = when.toLocaleString(undefined, {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      });
    }
  });

  // A large map scrolls in its frame: start at one of the viewer's own regions.
  var focus = document.querySelector("svg.map[data-focus]");
  if (focus) {
    var spot = focus.querySelector('[data-region="' + focus.dataset.focus + '"]');
    var frame = focus.parentNode;
    if (spot) {
      var box = spot.getBoundingClientRect(), outer = frame.getBoundingClientRect();
      frame.scrollLeft += box.left - outer.left - frame.clientWidth / 2;
      frame.scrollTop += box.top - outer.top - frame.clientHeight / 2;
    }
  }

  // Order entry on the map and in the form: orders.js, on the campaign page.

  // GM: the processing status updates itself until the turn is resolved or failed.
  var status = document.querySelector("[data-status-url]");
  if (status && status.dataset.done === "0") {
    var poll = function () {
      fetch(status.dataset.statusUrl, { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          status.querySelector("[data-status]").textContent = data.words;
          if (data.done) { window.location.reload(); } else { setTimeout(poll, 1500); }
        })
        .catch(function () { setTimeout(poll, 5000); });
    };
    setTimeout(poll, 1000);
  }
})();
