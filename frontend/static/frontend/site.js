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

  // A map's areas come without their codes (frontend/map_svg.py): the nth area of the regions layer is
  // the region of the nth label of the codes layer. Each area gets its data-region here, first, for what
  // follows and for orders.js.
  document.querySelectorAll("svg.map").forEach(function (map) {
    var areas = map.querySelectorAll(".regions use"), codes = map.querySelectorAll(".codes text");
    for (var i = 0; i < areas.length && i < codes.length; i++) {
      areas[i].setAttribute("data-region", codes[i].textContent);
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

  // Zoom and pan: + and − make the map wider than its frame, which then scrolls (a finger pans it). On a
  // phone the map starts at twice the width, so that region codes and counters can be read, centred on
  // one of the viewer's regions.
  document.querySelectorAll(".map-frame").forEach(function (frame) {
    var svg = frame.querySelector("svg.map");
    if (!svg || svg.style.minWidth) return; // a large map is already drawn big, in a scrolling frame
    var zoom = 1;
    var bar = document.createElement("div");
    bar.className = "map-zoom";
    [["+", 1], ["−", -1]].forEach(function (pair) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = pair[0];
      b.setAttribute("aria-label", pair[1] > 0 ? "zoom in" : "zoom out");
      b.addEventListener("click", function () { set(zoom + pair[1]); });
      bar.appendChild(b);
    });
    frame.parentNode.insertBefore(bar, frame);
    function set(z) {
      var before = { x: frame.scrollLeft + frame.clientWidth / 2, y: frame.scrollTop + frame.clientHeight / 2 };
      var old = zoom;
      zoom = Math.max(1, Math.min(4, z));
      svg.style.width = zoom * 100 + "%";
      svg.style.maxHeight = zoom > 1 ? "none" : "";
      frame.scrollLeft = (before.x * zoom) / old - frame.clientWidth / 2;
      frame.scrollTop = (before.y * zoom) / old - frame.clientHeight / 2;
    }
    if (window.innerWidth < 600) {
      set(2);
      var own = svg.querySelector('[data-owner="' + (svg.dataset.own || "") + '"] [data-region]');
      if (own) {
        var box = own.getBoundingClientRect(), outer = frame.getBoundingClientRect();
        frame.scrollLeft += box.left - outer.left - frame.clientWidth / 2 + box.width / 2;
        frame.scrollTop += box.top - outer.top - frame.clientHeight / 2 + box.height / 2;
      }
    }
  });

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
