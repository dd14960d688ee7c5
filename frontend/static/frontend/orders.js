// Orders on the map, progressive enhancement only: the form works without this file, and stays the way
// for the keyboard and screen readers. Click one of your regions, then a target: the kind follows from the
// target (the server judged every target with the engine's own rules: data in #order-data), the counts
// start at everything that is left, and the arrow is drawn before the order is saved.
(function () {
  "use strict";
  var dataEl = document.getElementById("order-data");
  var form = document.getElementById("order-form");
  if (!dataEl || !form) return;
  var data = JSON.parse(dataEl.dataset.json);
  // Each origin's targets come once (reach), and each kind's verdicts on them in that order
  // (frontend/order_targets.py, targets_compact): here, for each kind, a verdict by target's code.
  Object.keys(data.origins).forEach(function (code) {
    var o = data.origins[code], kinds = {};
    Object.keys(o.kinds).forEach(function (k) {
      kinds[k] = {};
      o.reach.forEach(function (t, i) { kinds[k][t] = o.kinds[k][i]; });
    });
    o.kinds = kinds;
  });
  var origin = form.querySelector("[data-origin-select]");
  var kind = form.querySelector("select[name=kind]");
  var target = form.querySelector("[data-target-select]");
  var preview = form.querySelector("[data-order-preview]");
  var inputs = Array.prototype.slice.call(form.querySelectorAll(".counts input"));
  var svg = document.querySelector("svg.map");
  var status = document.querySelector("[data-map-status]");
  var menu = document.querySelector("[data-map-menu]");
  var TARGETLESS = { hold: true, stand_down: true };
  var picked = data.picked;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s|\{(\w+)\}/g, function (_, a, b) {
      var v = values[a || b];
      return v === undefined || v === null ? "" : String(v);
    });
  }
  function here() { return data.origins[origin.value] || { left: {}, kinds: {} }; }
  function unitType(input) { return input.name.replace("units_", ""); }
  function allowed(type) {
    var roles = data.kind_roles[kind.value] || [];
    return roles.indexOf(data.roles[type]) >= 0;
  }
  function say(text) { if (status) status.textContent = text || ""; }

  // The targets legal for the origin and kind chosen; a hold or stand-down has none.
  function narrow() {
    var judged = here().kinds[kind.value];
    var none = !!TARGETLESS[kind.value];
    var was = target.value;
    while (target.options.length > 1) target.remove(1);
    if (judged && !none) {
      Object.keys(judged).sort().forEach(function (code) {
        if (judged[code] !== null) return;
        var o = document.createElement("option");
        o.value = code;
        o.textContent = data.labels[code] || code;
        target.appendChild(o);
      });
    }
    target.value = was;
    if (target.selectedIndex < 0) target.value = "";
    target.disabled = none;
    var left = here().left;
    inputs.forEach(function (input) {
      input.max = left[unitType(input)] || 0;
      input.disabled = !allowed(unitType(input));
      input.closest(".count").classList.toggle("off", input.disabled);
    });
    describe();
    mark();
  }

  function counts(which) {
    var left = here().left;
    inputs.forEach(function (input) {
      var t = unitType(input);
      input.value = which === "all" && allowed(t) ? left[t] || 0 : 0;
    });
    describe();
  }

  // The order as it will be read back, before it is saved.
  function describe() {
    var units = inputs
      .filter(function (i) { return !i.disabled && parseInt(i.value, 10) > 0; })
      .map(function (i) { return i.value + " " + unitType(i); })
      .join(", ");
    var wording = data.wordings[kind.value];
    var text = "";
    if (wording && units && (TARGETLESS[kind.value] || target.value)) {
      text = fill(wording, { units: units, origin: origin.value, target: target.value });
    }
    if (preview) preview.textContent = text;
    drawPending(text);
  }

  // The map: the origin highlighted, every region that is not a target greyed with its reason.
  // Each region's area on the map carries its code (data-region, from its label: site.js); its code label is
  // drawn above it.
  function regionOf(code) { return svg && svg.querySelector('[data-region="' + cssEscape(code) + '"]'); }
  function mark() {
    if (!svg) return;
    var judged = picked ? data.origins[picked] : null;
    svg.querySelectorAll("[data-region]").forEach(function (g) {
      var code = g.dataset.region;
      g.classList.toggle("chosen", code === picked);
      var why = judged ? reasonFor(code) : null;
      g.classList.toggle("illegal", !!judged && code !== picked && why !== null);
      g.classList.toggle("target", !!judged && code !== picked && why === null);
      if (why) g.dataset.why = why; else delete g.dataset.why;
    });
  }
  // null when `code` is a target of the picked origin for some kind, else why not.
  function reasonFor(code) {
    var kinds = data.origins[picked].kinds, first = null;
    for (var k in kinds) {
      if (!(code in kinds[k])) continue;
      if (kinds[k][code] === null) return null;
      if (first === null) first = kinds[k][code];
    }
    if (first === null) return fill(data.far, { target: code, origin: picked });
    // A position in the list of reasons, a template that names the target and origin; else the reason itself.
    return typeof first === "number" ? fill(data.reasons[first], { target: code, origin: picked }) : first;
  }
  // The kind a click on `code` means: Iron Fist's own → move, enemy or unowned → attack, and an
  // IV-only stack → rebase; the first kind in that order for which the target is legal.
  function inferred(code) {
    var o = data.origins[picked], left = o.left, airOnly = true, any = false;
    Object.keys(left).forEach(function (t) {
      if (left[t] > 0) { any = true; if (data.roles[t] !== "air") airOnly = false; }
    });
    var order = airOnly && any ? ["rebase", "move", "attack"] : ["move", "attack", "rebase"];
    for (var i = 0; i < order.length; i++) {
      var judged = o.kinds[order[i]];
      if (judged && judged[code] === null) return order[i];
    }
    return null;
  }

  // A region's area is placed at its label point: where the server's arrows start and end too.
  function centre(code) {
    var area = regionOf(code);
    if (!area) return null;
    return { x: parseFloat(area.getAttribute("x")), y: parseFloat(area.getAttribute("y")) };
  }
  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s; }
  function drawPending(text) {
    if (!svg) return;
    var old = svg.querySelector(".arrow.pending");
    if (old) old.remove();
    if (!text || TARGETLESS[kind.value] || !target.value) return;
    var a = centre(origin.value), b = centre(target.value);
    if (!a || !b) return;
    var ns = "http://www.w3.org/2000/svg";
    var line = document.createElementNS(ns, "line");
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy) || 1, trim = Math.min(3, len / 3);
    line.setAttribute("x1", a.x + (dx / len) * trim);
    line.setAttribute("y1", a.y + (dy / len) * trim);
    line.setAttribute("x2", b.x - (dx / len) * trim);
    line.setAttribute("y2", b.y - (dy / len) * trim);
    line.setAttribute("class", "arrow pending arrow-" + kind.value);
    line.setAttribute("marker-end", "url(#head-own)");
    line.setAttribute("stroke", data.color);
    var dash = { move: "6 3", rebase: "1.5 3" }[kind.value];
    if (dash) line.setAttribute("stroke-dasharray", dash);
    var title = document.createElementNS(ns, "title");
    title.textContent = text;
    line.appendChild(title);
    var group = svg.querySelector("g.arrows");
    if (!group) {
      group = document.createElementNS(ns, "g");
      group.setAttribute("class", "arrows");
      svg.appendChild(group);
    }
    group.appendChild(line);
  }

  function pick(code) {
    picked = code;
    origin.value = code;
    if (menu) menu.hidden = true;
    narrow();
    say(fill(data.say_origin, { origin: code }));
  }
  function showMenu() {
    if (!menu) return;
    menu.hidden = false;
    menu.querySelector("[data-menu-origin]").textContent = picked;
    var first = menu.querySelector("button");
    if (first) first.focus();
  }

  function clicked(code, event) {
    if (!picked) {
      if (data.origins[code]) { event.preventDefault(); pick(code); return; }
      event.preventDefault();
      say(fill(data.not_origin, { region: code }));
      return;
    }
    event.preventDefault();
    if (code === picked) { showMenu(); return; }
    var k = inferred(code);
    if (k) {
      kind.value = k;
      narrow();
      target.value = code;
      counts("all");
      say("");
      if (preview) preview.scrollIntoView({ behavior: "smooth", block: "nearest" });
      return;
    }
    if (data.origins[code]) { pick(code); return; }
    say(reasonFor(code));
  }

  // Hooks: one listener for every region. The links of the origins work without script (?origin=CODE#order).
  if (svg) {
    svg.addEventListener("click", function (event) {
      var area = event.target.closest("[data-region]");
      if (area) clicked(area.dataset.region, event);
    });
    // A tap on a region that is not a target says why (no hover on a phone); so does a hover.
    svg.addEventListener("mouseover", function (event) {
      var area = event.target.closest("[data-region]");
      if (area && area.dataset.why) say(area.dataset.why);
    });
  }
  if (menu) {
    menu.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-menu-kind]");
      if (!button) return;
      var k = button.dataset.menuKind;
      menu.hidden = true;
      if (k === "cancel") { picked = null; narrow(); say(""); return; }
      kind.value = k;
      narrow();
      counts("all");
    });
  }
  origin.addEventListener("change", function () { picked = origin.value; narrow(); counts("all"); });
  kind.addEventListener("change", function () { narrow(); counts("all"); });
  target.addEventListener("change", describe);
  inputs.forEach(function (input) {
    input.addEventListener("input", describe);
    // Steppers for phones, where a number field has no arrows.
    var minus = document.createElement("button"), plus = document.createElement("button");
    minus.type = plus.type = "button";
    minus.className = plus.className = "step";
    minus.textContent = "−";
    plus.textContent = "+";
    minus.setAttribute("aria-label", "− " + unitType(input));
    plus.setAttribute("aria-label", "+ " + unitType(input));
    function step(by) {
      var v = (parseInt(input.value, 10) || 0) + by, max = parseInt(input.max, 10);
      input.value = Math.max(0, isNaN(max) ? v : Math.min(max, v));
      describe();
    }
    minus.addEventListener("click", function () { step(-1); });
    plus.addEventListener("click", function () { step(1); });
    var box = document.createElement("span");
    box.className = "stepper";
    input.parentNode.insertBefore(box, input);
    box.appendChild(minus);
    box.appendChild(input);
    box.appendChild(plus);
  });
  var all = form.querySelector(".count-all");
  if (all) {
    all.hidden = false;
    all.addEventListener("click", function (event) {
      var b = event.target.closest("[data-count]");
      if (b) counts(b.dataset.count);
    });
  }
  var fresh = inputs.every(function (i) { return !parseInt(i.value, 10); });
  narrow();
  if (fresh && picked) counts("all");
})();
