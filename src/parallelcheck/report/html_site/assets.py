"""The inline CSS and scripts of the site's pages (each page carries its own: nothing loads).

The scripts only add filters and search; without them every page is complete and readable.
Choosing the versions shown side by side needs no script at all: each version's checkbox
hides its column through CSS (:func:`column_style`), so it works with scripts off too.
"""

from __future__ import annotations

BASE_STYLE = """
:root { color-scheme: light; --dev: #c62828; --dev-bg: #fdecea; --ref: #1565c0;
  --ref-bg: #e8f0fd; --line: #d0d4da; --muted: #5f6670; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem 1.5rem 3rem; font: 14px/1.45 system-ui, sans-serif;
  color: #1d2127; background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .4rem; border-bottom: 2px solid var(--line); }
code, pre { font-family: ui-monospace, monospace; font-size: .92em; }
a { color: #0b57d0; }
.pc-summary, .pc-versions, .pc-status { color: var(--muted); margin: .2rem 0; }
.pc-filters { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .8rem 0;
  padding: .5rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: #f7f8fa; }
.pc-filters fieldset { border: 0; margin: 0; padding: 0; }
.pc-filters legend { font-weight: 600; padding: 0; }
.pc-filters label { margin-right: .8rem; white-space: nowrap; }
.pc-count { margin-right: .5rem; }
.pc-sev { font-weight: 600; text-transform: uppercase; font-size: .75em; padding: 0 .3em;
  border-radius: 3px; background: #eee; }
.pc-sev-error .pc-sev, .pc-sev.pc-sev-error { background: var(--dev); color: #fff; }
.pc-sev-warning .pc-sev { background: #ef6c00; color: #fff; }
.pc-sev-info .pc-sev { background: #607d8b; color: #fff; }
.pc-stale { font-size: .75em; font-weight: 600; padding: 0 .3em; border-radius: 3px;
  background: #6a1b9a; color: #fff; }
[hidden] { display: none !important; }
"""

ARTICLE_STYLE = """
.pc-nav { margin-bottom: .4rem; }
.pc-findings { padding-left: 2rem; }
.pc-finding { margin: .35rem 0; }
.pc-finding:target { outline: 2px solid #fbc02d; }
.pc-message { margin: .1rem 0; }
.pc-section, .pc-unplaced { color: var(--muted); }
.pc-locs { font-size: .85em; color: var(--muted); margin-left: .4rem; }
.pc-loc { margin-right: .5rem; white-space: nowrap; }
.pc-loc-deviating { color: var(--dev); }
.pc-aligned { width: 100%; table-layout: fixed; border-collapse: separate; border-spacing: 0;
  min-width: calc(var(--pc-shown, 2) * 16rem); }
.pc-aligned > thead th { position: sticky; top: 0; z-index: 2; background: #eef1f5;
  text-align: left; vertical-align: top; padding: .4rem .5rem; border: 1px solid var(--line);
  box-shadow: 0 2px 3px rgba(0, 0, 0, .12); }
.pc-tag { font-size: 1.1em; }
.pc-path { font-weight: 400; font-size: .8em; color: var(--muted); overflow-wrap: anywhere; }
.pc-cell { vertical-align: top; padding: .35rem .5rem; border: 1px solid var(--line);
  overflow-wrap: break-word; }
.pc-headrow > .pc-cell { background: #f7f8fa; }
.pc-meta { font-size: .75em; color: var(--muted); }
.pc-kind { text-transform: uppercase; letter-spacing: .03em; }
.pc-h { font-weight: 700; hyphens: auto; }
.pc-h1 { font-size: 1.25em; } .pc-h2 { font-size: 1.15em; } .pc-h3 { font-size: 1.05em; }
.pc-p { margin: .2rem 0; white-space: pre-wrap; }
.pc-htmlblock { font-style: italic; }
.pc-info { font-size: .75em; color: var(--muted); }
.pc-code { margin: .2rem 0; padding: .4rem; background: #f4f5f7; overflow-x: auto;
  white-space: pre; }
.pc-list { margin: .2rem 0; padding-left: 1.3rem; white-space: pre-wrap; }
.pc-quote, .pc-admonition { margin: .2rem 0; padding-left: .6rem;
  border-left: 3px solid var(--line); }
.pc-tablewrap { overflow-x: auto; }
.pc-inner { border-collapse: collapse; font-size: .88em; margin: .2rem 0; }
.pc-inner th, .pc-inner td { border: 1px solid var(--line); padding: .15rem .3rem;
  vertical-align: top; }
.pc-inner th { background: #f0f2f5; }
.pc-empty { background: repeating-linear-gradient(135deg, #fafafa 0 8px, #f1f2f4 8px 16px);
  border: 1px dashed #9aa1ab; }
.pc-absent { color: var(--muted); font-style: italic; }
.pc-ref { background: var(--ref-bg); box-shadow: inset 4px 0 0 var(--ref); }
.pc-deviating { background: var(--dev-bg); box-shadow: inset 4px 0 0 var(--dev); }
.pc-missing { background: repeating-linear-gradient(135deg, #fdecea 0 8px, #f9d6d2 8px 16px);
  border: 2px dashed var(--dev); }
.pc-aligned > thead th.pc-missing, .pc-aligned > thead th.pc-deviating { background: #f9d6d2; }
.pc-quiet.pc-ref, .pc-quiet.pc-deviating { background: inherit; box-shadow: none; }
.pc-quiet.pc-missing { background: repeating-linear-gradient(135deg, #fafafa 0 8px,
  #f1f2f4 8px 16px); border: 1px dashed #9aa1ab; }
.pc-note { margin-top: .35rem; padding: .25rem .4rem; font-size: .85em; border-radius: 4px;
  font-weight: 400; }
.pc-note-dev { background: #fff; border: 1px solid var(--dev); color: #5b1212; }
.pc-note-ref { background: #fff; border: 1px solid var(--ref); color: #0d3c78; }
.pc-note:target { outline: 2px solid #fbc02d; }
"""

INDEX_STYLE = """
.pc-search { font: inherit; padding: .2rem .4rem; min-width: 18rem; }
.pc-index { border-collapse: separate; border-spacing: 0; width: 100%; }
.pc-index th, .pc-index td { border-bottom: 1px solid var(--line); padding: .25rem .4rem;
  text-align: left; vertical-align: top; }
.pc-index > thead th { position: sticky; top: 0; z-index: 2; background: #eef1f5;
  box-shadow: 0 2px 3px rgba(0, 0, 0, .12); white-space: nowrap; }
.pc-index td.pc-n, .pc-index td.pc-v { text-align: center; white-space: nowrap; }
.pc-article-title { color: var(--muted); font-size: .9em; }
.pc-clean-row > th, .pc-clean-row > td { color: var(--muted); }
.pc-v.pc-worst-error { background: var(--dev-bg); }
.pc-v.pc-worst-warning { background: #fff3e0; }
.pc-v.pc-worst-info { background: #eceff1; }
.pc-v.pc-nofile { color: var(--dev); font-style: italic; }
.pc-v.pc-absent { color: var(--muted); }
"""

ARTICLE_SCRIPT = """
(function () {
  "use strict";
  var form = document.getElementById("pc-filters");
  var table = document.getElementById("pc-aligned");
  var status = document.getElementById("pc-status");
  if (!form || !table) { return; }
  form.querySelectorAll(".pc-js").forEach(function (el) { el.hidden = false; });
  function boxes(name) { return form.querySelectorAll("input[name='" + name + "']"); }
  function chosen(name) {
    var on = {};
    boxes(name).forEach(function (box) { if (box.checked) { on[box.value] = true; } });
    return on;
  }
  function apply() {
    var langs = chosen("lang"), rules = chosen("rule"), severities = chosen("severity");
    var onlyMarked = form.querySelector("input[name='marked']").checked;
    table.style.setProperty("--pc-shown", String(Math.max(Object.keys(langs).length, 1)));
    var total = 0, shown = 0;
    document.querySelectorAll(".pc-finding").forEach(function (el) {
      var tags = el.getAttribute("data-langs").split(" ");
      var visible = Boolean(rules[el.getAttribute("data-rule")] &&
        severities[el.getAttribute("data-severity")] &&
        tags.some(function (tag) { return langs[tag]; }));
      el.hidden = !visible;
      total += 1;
      if (visible) { shown += 1; }
    });
    document.querySelectorAll(".pc-note").forEach(function (el) {
      var owner = document.getElementById(el.getAttribute("data-finding"));
      el.hidden = owner ? owner.hidden : false;
    });
    document.querySelectorAll(".pc-marked").forEach(function (cell) {
      cell.classList.toggle("pc-quiet", !cell.querySelector(".pc-note:not([hidden])"));
    });
    document.querySelectorAll(".pc-row").forEach(function (row) {
      row.hidden = onlyMarked && !row.querySelector(".pc-note:not([hidden])");
    });
    status.hidden = shown === total;
    status.textContent = "Showing " + shown + " of " + total + " findings: the others are " +
      "of severities or rules not ticked, or about versions not shown side by side.";
  }
  var params = new URLSearchParams(window.location.search);
  var wanted = params.getAll("lang");
  if (wanted.length) {
    boxes("lang").forEach(function (box) {
      box.checked = box.hasAttribute("data-source") || wanted.indexOf(box.value) >= 0;
    });
  }
  ["rule", "severity"].forEach(function (name) {
    var named = params.getAll(name);
    if (!named.length) { return; }
    boxes(name).forEach(function (box) { box.checked = named.indexOf(box.value) >= 0; });
  });
  if (params.get("marked")) { form.querySelector("input[name='marked']").checked = true; }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
    var target = link && document.getElementById(link.getAttribute("href").slice(1));
    var cell = target && target.closest("[data-col]");
    if (!cell) { return; }
    boxes("lang").forEach(function (box) {
      if (box.value === cell.getAttribute("data-col") && !box.checked) {
        box.checked = true;
        apply();
      }
    });
  });
  form.addEventListener("change", apply);
  apply();
})();
"""

INDEX_SCRIPT = """
(function () {
  "use strict";
  var form = document.getElementById("pc-filters");
  var status = document.getElementById("pc-status");
  if (!form) { return; }
  form.hidden = false;
  var search = form.querySelector("input[name='q']");
  var clean = form.querySelector("input[name='clean']");
  var rows = document.querySelectorAll(".pc-entry");
  var keys = { error: "data-e", warning: "data-w", info: "data-i" };
  function ticked() {
    var on = [];
    form.querySelectorAll("input[name='severity']").forEach(function (box) {
      if (box.checked) { on.push(keys[box.value]); }
    });
    return on;
  }
  function count(el, on) {
    var sum = 0;
    on.forEach(function (key) { sum += Number(el.getAttribute(key) || 0); });
    return sum;
  }
  function recount() {
    var on = ticked();
    var counted = ".pc-entry .pc-n, .pc-entry .pc-v";
    document.querySelectorAll(counted).forEach(function (el) {
      if (el.classList.contains("pc-absent")) { return; }
      var holder = el.querySelector("a, .pc-num") || el;
      var sum = count(el, on);
      holder.textContent = el.classList.contains("pc-v") && !sum ? "\\u00b7" : String(sum);
    });
    rows.forEach(function (row) { row.setAttribute("data-shown", String(count(row, on))); });
  }
  function filter() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var hay = row.getAttribute("data-search");
      var match = words.every(function (word) { return hay.indexOf(word) >= 0; });
      var flagged = row.getAttribute("data-findings") !== "0";
      var wanted = flagged ? row.getAttribute("data-shown") !== "0" : clean.checked;
      row.hidden = !(match && wanted);
      if (!row.hidden) { shown += 1; }
    });
    status.textContent = shown + " of " + rows.length + " articles shown";
  }
  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) { search.value = params.get("q"); }
  var named = params.getAll("severity");
  if (named.length) {
    form.querySelectorAll("input[name='severity']").forEach(function (box) {
      box.checked = named.indexOf(box.value) >= 0;
    });
  }
  if (params.get("clean") === "0") { clean.checked = false; }
  form.addEventListener("change", function () { recount(); filter(); });
  search.addEventListener("input", filter);
  recount();
  filter();
})();
"""


def column_style(columns: int) -> str:
    """CSS that hides the column of every version whose checkbox is not ticked: checkbox
    ``#pc-col-N`` governs the cells of class ``pc-cN``."""
    return "".join(
        f".pc-page:has(#pc-col-{n}:not(:checked)) .pc-c{n} {{ display: none; }}\n"
        for n in range(columns)
    )
