// The table painted before Python is ready (issue 45, docs/performance.md "The table at once").
//
// Each time Python draws the solo table it calls `spadesPaint.save(meta)`: a little later (once
// the table has settled) this script copies the score bar and the table's screen into a plain
// tree (tags, whitelisted attributes, text; no ids, no markup) and stores it under
// `spades.paint.v1`. At the next visit this classic script (deferred and render-blocking: run
// once the document is parsed, before anything is drawn) reads that record, checks every part of it
// (`read`: a bad value is ignored and removed, it never stops the page), and draws the copy in
// place of the static table with body[data-painted]: the "getting ready" state (the loading bar
// and a line of text from the record, over the table: nothing moves when they go).
//
// The copy is inert: a click on it reaches no Python. A card or a bid clicked there is kept
// (the last one) and marked; Python, once ready, calls `spadesPaint.revert()` first thing (the
// static nodes back, in the same task as its own first render: no frame shows between), and
// plays the kept click through its own handlers only if the table it restored is the one that
// was painted (the record's key) and the click is legal there. Any other click is visibly
// ignored: the "getting ready" line blinks.
//
// On a first visit (nothing saved, the welcome never shown, no room's or deal's link) there is
// no copy: the welcome is painted instead, in the visitor's language (the stored option, else
// the browser's), from the words the build wrote from the catalogues (ui/paint-words.js, run
// just before this script: `spadesPaintWords`), with the markup Python's `render.welcome`
// draws, and the same "getting ready" state (body[data-painted="welcome"]: the bar and its line
// float at the bottom of the screen). A choice clicked there is kept and marked, and opened by
// Python once its own welcome is drawn (ui/table/welcome.py `kept_choice`); any other click
// makes the line blink.
//
// Loaded as a classic script (the CSP allows no inline script); also run by Node in the tests
// (`read` is pure: tests/test_paint.py).
(function (root) {
  "use strict";
  const KEY = "spades.paint.v1";
  const VERSION = 1;
  const LIMIT = 400000; // characters: a whole table is ~60 000
  const MAX_DEPTH = 40;
  const MAX_NODES = 20000;
  const PARTS = { scorebar: "header.scorebar", table: "#screen-table" };
  // what App.boot reads to tell a first visit (ui/shared/storage.py KEYS), and the options
  const GAME = "spades.game.v1";
  const WELCOME_SEEN = "spades.welcome.v1";
  const OPTIONS = "spades.options.v1";
  const KEPT = new Set(["play", "bid", "look"]); // the clicks kept until Python can judge them
  const SVG_NS = "http://www.w3.org/2000/svg";
  const HTML_TAGS = new Set(["section", "div", "span", "p", "h1", "h2", "h3", "button", "nav",
                             "strong", "em", "small", "ul", "ol", "li"]);
  const SVG_TAGS = new Set(["svg", "g", "path", "rect", "circle", "ellipse", "line", "polygon",
                            "polyline", "text", "tspan"]);
  const ATTRS = new Set(["class", "role", "type", "disabled", "hidden", "title", "tabindex",
                         "viewBox", "d", "transform", "x", "y", "x1", "y1", "x2", "y2", "width",
                         "height", "rx", "ry", "cx", "cy", "r", "points", "fill", "stroke",
                         "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
                         "opacity", "fill-opacity", "stroke-opacity", "font-family", "font-size",
                         "font-weight", "font-style", "text-anchor", "textLength", "lengthAdjust",
                         "dominant-baseline", "focusable"]);
  const ATTR_PATTERN = /^(?:data|aria)-[a-z][a-z0-9-]{0,40}$/;
  const STYLE_NAME = /^--[a-z][a-z0-9-]{0,30}$/;
  const STYLE_VALUE = /^-?[0-9]{1,6}(?:\.[0-9]{1,4})?(?:px|ms|rem|deg)?$/;
  const CLASSES = /^[a-z0-9 _-]{0,300}$/i;
  const NO_REFERENCE = /url\s*\(|javascript:|expression\s*\(/i;

  function fail(why) { throw new Error(why); }

  // A checked copy of a stored tree: a string (text), [tag, attrs, ...children] or ["@", n]
  // (the n-th shared picture, n < refs). Throws on anything else.
  function checkNode(node, depth, budget, refs, inSvg) {
    if (++budget.count > MAX_NODES) fail("too many nodes");
    if (typeof node === "string") {
      if (node.length > 2000) fail("text too long");
      return node;
    }
    if (!Array.isArray(node) || node.length < 1 || depth > MAX_DEPTH) fail("not a node");
    if (node[0] === "@") {
      if (node.length !== 2 || !Number.isInteger(node[1])
          || node[1] < 0 || node[1] >= refs) fail("bad reference");
      return ["@", node[1]];
    }
    const tag = node[0];
    const svg = inSvg || tag === "svg";
    if (typeof tag !== "string" || !(svg ? SVG_TAGS : HTML_TAGS).has(tag)) fail("tag");
    const attrs = node[1];
    if (attrs === null || typeof attrs !== "object" || Array.isArray(attrs)) fail("attrs");
    const clean = {};
    for (const [name, value] of Object.entries(attrs)) {
      if (name === "style") {
        if (value === null || typeof value !== "object" || Array.isArray(value)) fail("style");
        const style = {};
        for (const [prop, amount] of Object.entries(value)) {
          if (!STYLE_NAME.test(prop) || typeof amount !== "string" || !STYLE_VALUE.test(amount)) {
            fail("style value");
          }
          style[prop] = amount;
        }
        clean.style = style;
        continue;
      }
      if (!(ATTRS.has(name) || ATTR_PATTERN.test(name))) fail(`attribute ${name}`);
      if (typeof value !== "string" || value.length > 4000 || NO_REFERENCE.test(value)) {
        fail(`value of ${name}`);
      }
      if (name === "class" && !CLASSES.test(value)) fail("class");
      clean[name] = value;
    }
    const children = [];
    for (let i = 2; i < node.length; i++) {
      children.push(checkNode(node[i], depth + 1, budget, refs, svg));
    }
    return [tag, clean, ...children];
  }

  // The stored record checked (a copy of it), or an error thrown saying why not.
  function check(text) {
    if (typeof text !== "string" || text.length > LIMIT) fail("not text, or too long");
    const data = JSON.parse(text);
    if (data === null || typeof data !== "object" || Array.isArray(data)) fail("not an object");
    if (data.v !== VERSION) fail("version");
    const { key, lang, ready, queued, body, refs, parts } = data;
    for (const value of [key, ready, queued]) {
      if (typeof value !== "string" || value.length > 200) fail("key or lines");
    }
    if (lang !== "en" && lang !== "fr") fail("language");
    if (typeof body !== "string" || !CLASSES.test(body)) fail("body classes");
    if (!Array.isArray(refs) || refs.length > 200) fail("pictures");
    if (parts === null || typeof parts !== "object" || Array.isArray(parts)) fail("parts");
    const names = Object.keys(parts).sort();
    if (names.join() !== Object.keys(PARTS).sort().join()) fail("part names");
    const budget = { count: 0 };
    // a picture may hold earlier ones (the back's patterns): no loop can be made
    const shared = refs.map((node, index) => checkNode(node, 0, budget, index, false));
    const checked = {};
    for (const name of names) {
      if (!Array.isArray(parts[name]) || parts[name].length > 100) fail("part");
      checked[name] = parts[name].map((node) => checkNode(node, 0, budget, refs.length, false));
    }
    return { v: VERSION, key, lang, ready, queued, body, refs: shared, parts: checked };
  }

  // The stored record checked, or null: the text as stored (any value), nothing thrown.
  function read(text) {
    try { return check(text); } catch (error) { return null; }
  }

  // Why the stored text is refused ("" when it is read): for the tests.
  function why(text) {
    try { check(text); return ""; } catch (error) { return String(error && error.message); }
  }

  // --- in the page ---------------------------------------------------------------------------

  function build(doc, node, shared, inSvg) {
    if (typeof node === "string") return doc.createTextNode(node);
    if (node[0] === "@") return shared(node[1]).cloneNode(true);
    const [tag, attrs, ...children] = node;
    const svg = inSvg || tag === "svg";
    const element = svg ? doc.createElementNS(SVG_NS, tag) : doc.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (name === "style") {
        for (const [prop, amount] of Object.entries(value)) element.style.setProperty(prop, amount);
      } else {
        element.setAttribute(name, value);
      }
    }
    for (const child of children) element.appendChild(build(doc, child, shared, svg));
    return element;
  }

  // The copy of an element's subtree (ids and any attribute not whitelisted left out; the
  // loading bar, its line and the message under the table left empty).
  function capture(node, shared, seen) {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return null;
    const tag = node.localName;
    if (!HTML_TAGS.has(tag) && !SVG_TAGS.has(tag)) return null;
    if (node.id === "boot-progress" || node.id === "boot-status") return null;
    const attrs = {};
    for (const { name, value } of node.attributes) {
      if (ATTRS.has(name) || ATTR_PATTERN.test(name)) attrs[name] = value;
    }
    const style = {};
    for (const prop of node.style || []) {
      const amount = node.style.getPropertyValue(prop).trim();
      if (STYLE_NAME.test(prop) && STYLE_VALUE.test(amount)) style[prop] = amount;
    }
    if (Object.keys(style).length) attrs.style = style;
    const tree = [tag, attrs];
    if (node.id !== "message") {
      for (const child of node.childNodes) {
        const copy = capture(child, shared, seen);
        if (copy !== null) tree.push(copy);
      }
    }
    if (tag !== "svg") return tree;
    const text = JSON.stringify(tree); // the pictures (faces, backs, avatars) are stored once
    if (!seen.has(text)) {
      seen.set(text, shared.length);
      shared.push(tree);
    }
    return ["@", seen.get(text)];
  }

  let pending = null; // the meta of the last save, until it is captured
  let timer = 0;
  // {containers: [[element, original children]], areas: [elements whose clicks are caught],
  //  keep: the actions kept, kept, key, readyText, queuedText, welcome: {section, table} or null}
  let painted = null;

  function store() {
    clearTimeout(timer);
    timer = 0;
    if (pending === null) return;
    const meta = pending;
    pending = null;
    try {
      const refs = [];
      const seen = new Map();
      const parts = {};
      for (const [name, selector] of Object.entries(PARTS)) {
        const element = document.querySelector(selector);
        parts[name] = [];
        for (const child of element.childNodes) {
          const copy = capture(child, refs, seen);
          if (copy !== null) parts[name].push(copy);
        }
      }
      const body = document.body.className.split(/\s+/)
        .filter((name) => /^(felt-|back-|four-colour$)/.test(name)).join(" ");
      const record = { v: VERSION, key: meta.key, lang: meta.lang, ready: meta.ready,
                       queued: meta.queued, body, refs, parts };
      localStorage.setItem(KEY, JSON.stringify(record));
    } catch (error) {
      forget();
    }
  }

  // Python drew the solo table: store its copy once the table has settled (a bot's card every
  // few hundred ms is copied once), and when the page is left.
  function save(meta) {
    try {
      const found = typeof meta === "string" ? JSON.parse(meta) : meta;
      pending = { key: String(found.key), lang: String(found.lang), ready: String(found.ready),
                  queued: String(found.queued) };
    } catch (error) {
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(store, 400);
  }

  // The table shows what is not the saved game (a room, a practice hand): no copy of it.
  function hold() {
    pending = null;
    clearTimeout(timer);
    timer = 0;
  }

  function forget() {
    pending = null;
    clearTimeout(timer);
    timer = 0;
    try { localStorage.removeItem(KEY); } catch (error) { /* storage refused: nothing kept */ }
  }

  function nudge() {
    const status = document.getElementById("boot-status");
    if (!status) return;
    status.classList.remove("paint-nudge");
    void status.offsetWidth; // restart the animation
    status.classList.add("paint-nudge");
  }

  function onClick(event) {
    if (painted === null) return;
    if (!painted.areas.some((element) => element.contains(event.target))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const target = event.target.closest ? event.target.closest("[data-action]") : null;
    const action = target ? target.getAttribute("data-action") : "";
    const status = document.getElementById("boot-status");
    if (target && painted.keep.has(action) && !target.disabled) {
      for (const node of document.querySelectorAll(".paint-kept")) node.classList.remove("paint-kept");
      target.classList.add("paint-kept");
      painted.kept = { action, arg: target.getAttribute("data-arg") || "" };
      if (status) status.textContent = painted.queuedText || painted.readyText;
      document.body.dataset.paintKept = action;
    } else {
      nudge();
    }
  }

  // A disabled button (the score bar's menu before Python) gets no click: the line blinks.
  function onPointer(event) {
    if (painted === null || !event.target.closest) return;
    const button = event.target.closest("button[disabled]");
    if (button && painted.areas.some((element) => element.contains(button))) nudge();
  }

  function listen() {
    document.addEventListener("click", onClick, true);
    document.addEventListener("pointerdown", onPointer, true);
  }

  function paint() {
    // a room's link or a deal's link opens another table than the saved game's
    const params = new URLSearchParams(location.search);
    if (params.has("room") || params.has("deal")) return;
    let text = null;
    try { text = localStorage.getItem(KEY); } catch (error) { return; }
    if (text === null) {
      paintWelcome();
      return;
    }
    const record = read(text);
    if (record === null) {
      forget();
      return;
    }
    const containers = [];
    try {
      const built = new Map();
      const shared = (index) => {
        if (!built.has(index)) built.set(index, build(document, record.refs[index], shared, false));
        return built.get(index);
      };
      const fresh = {};
      for (const [name, selector] of Object.entries(PARTS)) {
        const element = document.querySelector(selector);
        if (!element) return;
        const fragment = document.createDocumentFragment();
        for (const node of record.parts[name]) fragment.appendChild(build(document, node, shared, false));
        fresh[name] = [element, fragment];
      }
      const progress = document.getElementById("boot-progress");
      const status = document.getElementById("boot-status");
      const centre = fresh.table[1].querySelector(".centre");
      if (!progress || !status || !centre) {
        forget();
        return;
      }
      for (const [element, fragment] of Object.values(fresh)) {
        containers.push([element, Array.from(element.childNodes)]);
        element.replaceChildren(fragment);
      }
      centre.append(progress, status);
      painted = { containers, areas: containers.map(([element]) => element), keep: KEPT,
                  kept: null, key: record.key, readyText: record.ready,
                  queuedText: record.queued, welcome: null };
      const keep = document.body.className.split(/\s+/)
        .filter((name) => name && !/^(felt-|back-|four-colour$)/.test(name));
      document.body.className = [...keep, ...record.body.split(/\s+/).filter(Boolean)].join(" ");
      document.documentElement.lang = record.lang;
      status.textContent = record.ready;
      document.body.dataset.painted = "1";
      listen();
      performance.mark("spades:table-painted");
    } catch (error) {
      restore(containers);
      painted = null;
      forget();
    }
  }

  // --- the first visit's welcome ------------------------------------------------------------

  const WORD = /^[a-z][a-z0-9.-]{0,60}$/;

  // ui/paint-words.js's words checked: {choices: [[stem, action, primary]], words: {lang:
  // {key: text}}} with every word each choice needs, or null.
  function checkWords(found) {
    if (found === null || typeof found !== "object") return null;
    const { choices, words } = found;
    if (!Array.isArray(choices) || choices.length < 1 || words === null
        || typeof words !== "object") return null;
    const needed = ["app.title", "app.progress", "app.getting-ready", "app.getting-ready-choice",
                    "welcome.title", "welcome.intro"];
    for (const choice of choices) {
      if (!Array.isArray(choice) || choice.length !== 3 || !WORD.test(choice[0])
          || !WORD.test(choice[1]) || typeof choice[2] !== "boolean") return null;
      needed.push(`welcome.${choice[0]}`, `welcome.${choice[0]}.help`);
    }
    for (const text of Object.values(words)) {
      if (text === null || typeof text !== "object"
          || needed.some((key) => typeof text[key] !== "string")) return null;
    }
    return { choices, words };
  }

  // The page's language as Python picks it: the stored option, else the browser's first
  // language the words have (fr-CA: fr), else English.
  function pickLanguage(words) {
    try {
      const options = JSON.parse(localStorage.getItem(OPTIONS));
      if (options !== null && typeof options === "object" && !Array.isArray(options)
          && typeof options.language === "string" && Object.hasOwn(words, options.language)) {
        return options.language;
      }
    } catch (error) { /* unreadable options: Python takes the browser's language too */ }
    for (const preference of navigator.languages || [navigator.language]) {
      const base = String(preference).split("-")[0].toLowerCase();
      if (Object.hasOwn(words, base)) return base;
    }
    return "en";
  }

  // A first visit as App.boot sees it: no game saved, the welcome never shown (a room's or a
  // deal's link was ruled out by the caller).
  function firstVisit() {
    return localStorage.getItem(GAME) === null && localStorage.getItem(WELCOME_SEEN) === null;
  }

  function paintWelcome() {
    const found = checkWords(root.spadesPaintWords);
    if (found === null || !firstVisit()) return;
    const lang = pickLanguage(found.words);
    const text = found.words[lang] || found.words.en;
    const section = document.getElementById("screen-welcome");
    const table = document.getElementById("screen-table");
    const scorebar = document.querySelector("header.scorebar");
    const progress = document.getElementById("boot-progress");
    const status = document.getElementById("boot-status");
    if (!text || !section || !table || !scorebar || !progress || !status) return;
    const node = (tag, words, cls) => {
      const element = document.createElement(tag);
      if (cls) element.className = cls;
      if (words !== null) element.textContent = words;
      return element;
    };
    // the markup of render.welcome (ui/table/render.py), without its ids
    const title = node("h2", text["welcome.title"], null);
    title.setAttribute("tabindex", "-1");
    const list = node("div", null, "menu-list welcome-list");
    for (const [stem, action, primary] of found.choices) {
      const button = node("button", null, primary ? "primary" : null);
      button.setAttribute("type", "button");
      button.setAttribute("data-action", action);
      button.setAttribute("data-key", `welcome-${stem}`);
      button.append(node("span", text[`welcome.${stem}`], "welcome-choice"),
                    node("span", text[`welcome.${stem}.help`], "welcome-help"));
      list.append(button);
    }
    const welcome = { section, table };
    try {
      section.replaceChildren(title, node("p", text["welcome.intro"], null), list, progress, status);
      table.hidden = true;
      section.hidden = false;
      document.body.dataset.screen = "welcome";
      document.documentElement.lang = lang;
      document.title = text["app.title"];
      progress.setAttribute("aria-label", text["app.progress"]);
      status.textContent = text["app.getting-ready"];
      painted = { containers: [], areas: [section, scorebar],
                  keep: new Set(found.choices.map((choice) => choice[1])), kept: null,
                  key: "welcome", readyText: text["app.getting-ready"],
                  queuedText: text["app.getting-ready-choice"], welcome };
      document.body.dataset.painted = "welcome";
      listen();
      performance.mark("spades:welcome-painted");
    } catch (error) {
      unpaintWelcome(welcome);
      painted = null;
    }
  }

  // The static page back: the welcome's section empty and hidden, the table shown.
  function unpaintWelcome({ section, table }) {
    restore([]);
    section.replaceChildren();
    section.hidden = true;
    table.hidden = false;
    delete document.body.dataset.screen;
  }

  // The static children back in place of the painted ones, the loading bar and its line
  // back in the static centre (where Python and ui/loading.js find them by id).
  function restore(containers) {
    const progress = document.getElementById("boot-progress");
    const status = document.getElementById("boot-status");
    for (const [element, children] of containers) element.replaceChildren(...children);
    const centre = document.getElementById("centre");
    if (centre && progress && status) centre.append(progress, status);
    if (status) status.classList.remove("paint-nudge");
  }

  // Python takes over: the static nodes back (Python draws them in this same task) and what
  // was painted: {key, action, arg} (action "" when no card or bid was kept), or null.
  function revert() {
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("pointerdown", onPointer, true);
    if (painted === null) return null;
    const { containers, kept, key, welcome } = painted;
    painted = null;
    restore(containers);
    if (welcome) unpaintWelcome(welcome);
    delete document.body.dataset.painted;
    delete document.body.dataset.paintKept;
    return { key, action: kept ? kept.action : "", arg: kept ? kept.arg : "" };
  }

  // (tests: the last save has been stored)
  const settled = () => pending === null;
  const api = { KEY, read, why, save, hold, forget, revert, settled };
  root.spadesPaint = api;
  if (typeof document !== "undefined" && typeof localStorage !== "undefined") {
    addEventListener("pagehide", store);
    try { paint(); } catch (error) { /* never stop the page */ }
  }
})(globalThis);
