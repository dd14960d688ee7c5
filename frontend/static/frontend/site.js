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

  // Order form: an origin narrows the targets to those in reach and caps the counts at what is left.
  var origin = document.querySelector("[data-origin-select]");
  var target = document.querySelector("[data-target-select]");
  function originChanged() {
    var option = origin.options[origin.selectedIndex];
    if (!option) return;
    var reach = (option.dataset.targets || "").split(" ");
    Array.prototype.forEach.call(target.options, function (o) {
      var ok = o.value === "" || reach.indexOf(o.value) >= 0;
      o.hidden = !ok;
      o.disabled = !ok;
      if (!ok && o.selected) target.value = "";
    });
    var left = {};
    (option.dataset.left || "").split(" ").forEach(function (pair) {
      var parts = pair.split(":");
      if (parts.length === 2) left[parts[0]] = parts[1];
    });
    document.querySelectorAll(".order-form .counts input").forEach(function (input) {
      input.max = left[input.name.replace("units_", "")] || 0;
    });
  }
  if (origin && target) {
    origin.addEventListener("change", originChanged);
    originChanged();
    // Clicking a region of the map chooses it as the origin, without reloading the page.
    document.querySelectorAll("svg.map a.pick").forEach(function (link) {
      link.addEventListener("click", function (event) {
        var code = link.querySelector("[data-region]").dataset.region;
        var known = Array.prototype.some.call(origin.options, function (o) { return o.value === code; });
        if (!known) return;
        event.preventDefault();
        origin.value = code;
        originChanged();
        document.querySelectorAll("svg.map .region.chosen").forEach(function (g) { g.classList.remove("chosen"); });
        link.querySelector(".region").classList.add("chosen");
        document.getElementById("order").scrollIntoView({ behavior: "smooth", block: "nearest" });
        origin.focus();
      });
    });
  }

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
