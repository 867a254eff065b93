// The scheduler's page: the state is the path in the URL (?path=c2,d2-1);
// each click asks the server for the state one more step reaches. The
// history tree and the states seen live in this page only.
"use strict";

// CUT is the most characters of a path or an error the page echoes.
const CUT = 160;

function cut(s, n) { s = String(s); return s.length > (n || CUT) ? s.slice(0, (n || CUT) - 1) + "…" : s; }

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#bfdbfe", "#bbf7d0", "#fde68a", "#fbcfe8", "#ddd6fe", "#fed7aa", "#99f6e4", "#e9d5ff", "#fecaca"];

// TEXT holds the English words of the page, read with T(key, {name:
// value}) for the {name}s in them: one place to translate.
const TEXT = {
  crashed: "crashed",
  pending: "pending",
  legendStates: "States met so far",
  legendMarks: "Marks",
  markCS: "in the critical section",
  markLeader: "leader",
  markHalo: "a node of the violation",
  markMoved: "moved by the last step",
  markMsg: "a message in flight, towards its receiver (#1: sent first on its link)",
  markBlocked: "not deliverable yet",
  labelsHidden: "{n} message label(s) left out for room: hover a message, or see Messages in flight",
  sentNth: "sent #{k}",
  sentOrder: "sent #{k} of {n} on its link",
  initial: "initial state",
  cannotShow: "Cannot show {path}: {error}",
  prefixKept: "Step {n} ({label}) cannot be taken: {error}. Showing the {valid} step(s) before it.",
  notParsed: "The path does not parse: {error}. Showing the {n} step(s) before what does not parse.",
  tooLong: "The path has {n} steps, more than {max}. Showing its first {max}.",
  fork: "other branch",
  stepWords: "step {n}: {words} ({label})",
  took: "took the {n} step(s) at the end of the path",
  stripLong: "The space-time strip draws paths of up to {n} steps.",
  folded: "⋯ {n} more step(s): click to show them ⋯",
  nearest: "⚡ shortest way to a violation",
  nearestTip: "this step is on a shortest way from here to a violation",
};
function T(key, args) {
  let s = TEXT[key] === undefined ? key : TEXT[key];
  for (const k in args || {}) s = s.split("{" + k + "}").join(String(args[k]));
  return s;
}

const ex = {
  ready: false, info: null, st: null, path: null,
  seen: new Set(), epoch: -1,
  tree: { label: "", words: "", children: new Map(), last: null }, // the branches taken
  pos: [], view: { W: 600, H: 460, r: 30 },
  states: new Set(), colours: new Map(), marks: new Set(), hiddenLabels: 0, // what the legend explains
};
window.explorer = ex;

function labelsOf(path) { return path === "" ? [] : path.split(","); }

// HTTPError is an answer that is not 200: its status and its text.
class HTTPError extends Error {
  constructor(status, text, json) { super(text); this.status = status; this.json = json; }
}

async function getJSON(url) {
  const r = await fetch(url);
  const text = await r.text();
  if (!r.ok) {
    const json = (r.headers.get("Content-Type") || "").startsWith("application/json");
    throw new HTTPError(r.status, text.trim() || r.statusText, json ? JSON.parse(text) : null);
  }
  return JSON.parse(text);
}

// LABEL is the shape of one step's label in a path (statespace.ParseLasso).
const LABEL = /^([dl]\d+-\d+(\.\d+)?|t\d+:\d+|[cxr]\d+)$/;

// fetchState asks for the state path reaches. A path the server refuses
// falls back to its valid prefix: the steps that parse (and, at most, the
// most the server takes), then the steps that can be taken (a 400 in
// JSON brings that prefix's state). It returns the state and a note
// saying what was refused ("" when nothing was).
async function fetchState(path) {
  try {
    return [await getJSON("/api/state?path=" + encodeURIComponent(path)), ""];
  } catch (err) {
    if (!(err instanceof HTTPError) || err.status !== 400) throw err;
    if (err.json) {
      const a = err.json;
      const ls = labelsOf(path.replace("|", ","));
      return [a.prefix, T("prefixKept", { n: a.valid + 1, label: cut(ls[a.valid] || "", 40), error: cut(a.error), valid: a.valid })];
    }
    const ls = labelsOf(path.replace("|", ","));
    let n = 0;
    while (n < ls.length && LABEL.test(ls[n])) n++;
    let note = T("notParsed", { error: cut(err.message), n: n });
    if (n === ls.length && n > ex.info.max_steps) { n = ex.info.max_steps; note = T("tooLong", { n: ls.length, max: n }); }
    if (n === ls.length) throw err; // nothing shorter to show
    const [st, more] = await fetchState(ls.slice(0, n).join(","));
    return [st, more ? note + " " + more : note];
  }
}

async function init() {
  ex.info = await getJSON("/api/info");
  $("title").textContent = ex.info.title;
  document.title = ex.info.title + " · ringlab explorer";
  $("fatesNote").textContent = "Fates: " + ex.info.fates_note + ".";
  const p = new URLSearchParams(location.search).get("path") || "";
  window.addEventListener("popstate", () => go(new URLSearchParams(location.search).get("path") || "", false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") back();
    if (e.key === "ArrowRight") forward();
    if (e.key === "Escape") hideMenu();
  });
  document.addEventListener("click", (e) => { if (!$("menu").contains(e.target) && !e.target.closest(".node,.msg")) hideMenu(); });
  $("back").onclick = back;
  $("fwd").onclick = forward;
  $("restart").onclick = () => go("", true);
  $("shortest").onclick = shortest;
  await go(p, false, true);
}

// go shows the state path reaches; push adds it to the browser's history.
async function go(path, push, replace) {
  ex.ready = false;
  hideMenu();
  let st, note;
  try {
    [st, note] = await fetchState(path);
  } catch (err) {
    $("error").hidden = false;
    $("error").textContent = T("cannotShow", { path: cut(path || T("initial")), error: cut(err.message) });
    ex.ready = true;
    return;
  }
  $("error").hidden = !note;
  $("error").textContent = note;
  if (note) replace = true, push = false; // the URL says the prefix shown
  if (st.epoch !== ex.epoch) { ex.seen = new Set(); ex.epoch = st.epoch; }
  for (const k of st.keys) ex.seen.add(k);
  // a lasso's page keeps PREFIX|CYCLE in its URL; every step taken from
  // it goes on from the plain path
  ex.st = st; ex.path = st.labels.join(",");
  remember(st.labels, st.words);
  const url = "/explore" + (st.path ? "?path=" + st.path.replace("|", "%7C") : "");
  if (push) history.pushState(null, "", url);
  else if (replace) history.replaceState(null, "", url);
  render();
  ex.ready = true;
}

// remember adds the path (its labels and their words) to the history
// tree, as the last branch taken at each fork.
function remember(labels, words) {
  let t = ex.tree;
  for (const [i, l] of labels.entries()) {
    if (!t.children.has(l)) t.children.set(l, { label: l, words: words[i] || "", children: new Map(), last: null });
    t.last = l;
    t = t.children.get(l);
  }
}

function back() {
  const ls = labelsOf(ex.path);
  if (ls.length > 0) go(ls.slice(0, -1).join(","), true);
}

function forward() {
  let t = ex.tree;
  for (const l of labelsOf(ex.path)) t = t.children.get(l);
  if (t && t.last) go(ex.path ? ex.path + "," + t.last : t.last, true);
}

function step(label) { go(ex.path ? ex.path + "," + label : label, true); }

async function shortest() {
  $("shortNote").textContent = "searching…";
  try {
    const a = await getJSON("/api/shortest?path=" + encodeURIComponent(ex.path));
    if (a.found) {
      $("shortNote").textContent = a.steps ? T("took", { n: labelsOf(a.steps).length }) : "this path has already violated";
      if (a.steps) await go(a.path, true);
    } else $("shortNote").textContent = a.note;
  } catch (err) { $("shortNote").textContent = err.message; }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function badge(cls, text, title) {
  const b = el("span", "badge " + cls, text);
  if (title) b.title = title;
  return b;
}

const FATE_WORDS = {
  unavoidable: "a violation is now unavoidable",
  reachable: "a violation is reachable",
  safe: "no violation is reachable from here",
  undecided: "no violation is reachable within the state constraint, but a state beyond it is, and what lies beyond is not explored",
};

// stepMarks appends a step's marks to e: its fate, a violation, a state it
// leads back to.
function stepMarks(e, s) {
  if (s.violates) e.append(badge("b-violates", "violates " + s.violates));
  // after a violation the fates of what follows no longer decide anything
  if (s.fate && !ex.st.violation) e.append(badge("f-" + s.fate, s.fate, FATE_WORDS[s.fate]));
  if (s.nearest && !ex.st.violation) e.append(badge("b-nearest", T("nearest"), T("nearestTip")));
  if (s.on_path >= 0) e.append(badge("b-onpath", "↺ back to state " + s.on_path + " of the path"));
  else if (ex.seen.has(s.next)) e.append(badge("b-seen", "↺ a state already seen"));
}

function render() {
  const st = ex.st, n = ex.info.names.length, ls = st.labels;
  $("where").textContent = ls.length === 0 ? "initial state" : "after " + ls.length + " step(s)" + (st.terminal ? " — the run has ended" : "");
  // banners
  const b = $("banner");
  if (st.violation) {
    b.hidden = false;
    const at = st.violation.at > ls.length ? "where the run ends" : "at step " + st.violation.at;
    b.textContent = "⚠ VIOLATION of " + st.violation.property + " " + at + ": " + st.violation.detail;
  } else b.hidden = true;
  const d = $("doom");
  if (!st.violation && st.fate === "unavoidable") {
    d.hidden = false;
    d.textContent = "A violation is now unavoidable: every continuation breaks a property (point of no return: " +
      (st.no_return === 0 ? "the initial state" : "step " + st.no_return) + ").";
  } else d.hidden = true;
  $("fate").innerHTML = "";
  if (st.fate) {
    $("fate").append("From here: ", badge("f-" + st.fate, st.fate), " " + FATE_WORDS[st.fate] + ".");
    if (st.no_return >= 0) $("fate").append(" Point of no return: " + (st.no_return === 0 ? "the initial state." : T("stepWords", { n: st.no_return, words: st.words[st.no_return - 1], label: ls[st.no_return - 1] }) + "."));
  }
  // enabled steps
  const ul = $("steps"); ul.innerHTML = "";
  $("stepsNote").textContent = st.steps.length ? "(click one)" : "";
  if (!st.steps.length) ul.append(el("li", "", st.terminal ? "none: the run has ended" : "none"));
  for (const s of st.steps) {
    const li = el("li", "step");
    li.dataset.label = s.label;
    stepText(li, s.label, s.words);
    stepMarks(li, s);
    li.onclick = () => step(s.label);
    ul.append(li);
  }
  // messages left
  const left = $("left");
  if (st.fewest !== undefined && st.fewest !== null) {
    const most = st.unbounded ? "unbounded (a cycle that sends)" : st.most;
    left.textContent = "sent so far " + st.messages + "; still to come: fewest " + st.fewest + ", most " + most +
      " (a whole run: " + (st.messages + st.fewest) + ".." + (st.unbounded ? "∞" : st.messages + st.most) + ")";
    if (ex.info.theory) left.textContent += "; theory: " + ex.info.theory;
  } else if (st.violation) left.textContent = "sent so far " + st.messages + "; what is still to come is counted up to a violation, and this path has one";
  else if (st.fate === "undecided") left.textContent = "sent so far " + st.messages + "; the rest is unknown (a run may go on beyond the state constraint)";
  else left.textContent = "sent so far " + st.messages + (ex.info.fates ? "; no run ends from here" : "; the rest is unknown (the space was not analysed)");
  // properties
  const props = $("props"); props.innerHTML = "";
  for (const p of st.properties || []) {
    const li = el("li", p.status.replace(" ", "-"), p.id + ": " + p.status + (p.detail ? " — " + p.detail : ""));
    props.append(li);
  }
  // nodes
  const nodes = $("nodes"); nodes.innerHTML = "";
  for (const nd of st.nodes) {
    const div = el("div", "nd");
    div.dataset.node = nd.index;
    div.append(el("b", "name", nd.name + (nd.alive ? "" : " (crashed)") + (nd.done ? " ✓" : "") + " "));
    const ch = new Set(nd.changed || []);
    if (nd.was) div.append(el("span", "was", nd.was), " → ");
    div.append(el("span", "st" + (ch.has("state") ? " ch" : ""), nd.state));
    for (const f of nd.fields) div.append(" · ", el("span", ch.has(f.split(":")[0]) ? "ch" : "", f));
    if (nd.pending && nd.pending.length) div.append(el("br"), "pending: " + nd.pending.join(", "));
    nodes.append(div);
  }
  // flight
  const fl = $("flight"); fl.innerHTML = "";
  if (!st.flight || !st.flight.length) fl.append(el("li", "", "none"));
  for (const fs of linkOrder(st.flight).values()) {
    fs.forEach((f, i) => fl.append(el("li", "", f.text + " " + ex.info.names[f.from - 1] + " → " + ex.info.names[f.to - 1] + (fs.length > 1 ? " (" + T("sentOrder", { k: i + 1, n: fs.length }) + ")" : ""))));
  }
  renderPath(st, ls);
  $("replay").textContent = st.replay;
  $("open").textContent = st.open;
  renderTree();
  drawGraph(n);
}

// stepText writes one step into e: its words, and its label as small
// secondary text (the label alone when the words are not known).
function stepText(e, label, words) {
  if (words) e.append(el("span", "words", words), " ");
  e.append(el("code", "lbl", label));
}

// renderPath lists the path so far, every step in words (the middle of a
// path longer than TREE_RUN folded, as the history's), and points the
// space-time strip at it.
function renderPath(st, ls) {
  const pl = $("path"); pl.innerHTML = "";
  pl.start = 0; // numbered from the initial state
  const li0 = el("li", ls.length === 0 ? "cur" : "", T("initial"));
  li0.dataset.index = 0; li0.onclick = () => go("", true);
  if (st.no_return === 0) li0.classList.add("noreturn");
  pl.append(li0);
  const cyc = st.cycle_start;
  if (cyc >= 0) $("cycleNote").textContent = "a lasso: " + cyc + " step(s), then a cycle of " + (ls.length - cyc) +
    " (highlighted)" + (st.cycle_back ? " whose last step comes back to state " + cyc + ": it repeats for ever" : " that does not come back to its start");
  $("cycleNote").hidden = cyc < 0;
  const long = ls.length > TREE_RUN && ex.pathOpen !== st.path;
  let folded = 0;
  ls.forEach((l, i) => {
    if (long && i >= TREE_HEAD && i < ls.length - TREE_TAIL && i !== cyc && st.no_return !== i + 1 &&
      !(st.violation && st.violation.at === i + 1)) { folded++; return; }
    if (folded) {
      const f = el("li", "folded", T("folded", { n: folded }));
      f.onclick = () => { ex.pathOpen = st.path; renderPath(st, ls); };
      pl.append(f);
      folded = 0;
    }
    const li = el("li");
    if (long) li.value = i + 1;
    stepText(li, l, st.words[i]);
    li.dataset.index = i + 1; li.dataset.label = l;
    if (cyc >= 0 && i >= cyc) li.classList.add("cycle");
    if (cyc >= 0 && i === cyc) li.classList.add("cyclestart");
    if (i + 1 === ls.length) li.classList.add("cur");
    if (st.no_return === i + 1) li.classList.add("noreturn");
    if (st.violation && st.violation.at === i + 1) li.classList.add("violated");
    li.onclick = () => go(ls.slice(0, i + 1).join(","), true);
    pl.append(li);
  });
  if (cyc >= 0 && st.cycle_back) {
    const li = el("li", "cycleback", "↩ back to the start: state " + cyc + ", the cycle repeats for ever");
    li.onclick = () => go(ls.slice(0, cyc).join(","), true);
    pl.append(li);
  }
  const strip = $("strip"), tooLong = ls.length > STRIP_STEPS;
  $("stripBox").hidden = tooLong;
  $("stripNote").hidden = !tooLong;
  $("stripNote").textContent = T("stripLong", { n: STRIP_STEPS });
  if (!tooLong && strip.dataset.path !== st.path) {
    strip.dataset.path = st.path;
    strip.onload = () => { $("stripBox").scrollLeft = $("stripBox").scrollWidth; };
    strip.src = "/api/strip?path=" + encodeURIComponent(st.path);
  }
}

// STRIP_STEPS is the longest path drawn as a space-time strip: past it
// the picture is too long to read in a strip, and costly to draw.
const STRIP_STEPS = 300;

// renderTree draws the history: a run of steps without a fork stays at
// one indentation; at a fork the branch taken last goes on at the same
// indentation and each other branch is indented once below it. The middle
// of a run longer than TREE_RUN is folded into one entry that unfolds it.
function renderTree() {
  const box = $("tree"); box.innerHTML = "";
  const depth = labelsOf(ex.path).length;
  const item = (ul, c, labels) => {
    const p = labels.join(",");
    const li = el("li");
    const a = el("a", p === ex.path ? "cur" : "");
    stepText(a, c.label, c.words);
    a.dataset.path = p;
    a.onclick = () => go(p, true);
    li.append(a);
    ul.append(li);
  };
  // chain draws into ul the run of steps from t on, labels leading to t
  const chain = (t, labels, ul) => {
    const run = [], all = labels.slice();
    for (;;) {
      if (!t.children.size) break;
      const main = t.children.has(t.last) ? t.last : t.children.keys().next().value;
      run.push({ at: t, main: main, n: all.length + 1 });
      all.push(main);
      t = t.children.get(main);
    }
    const long = run.length > TREE_RUN && !ex.treeOpen;
    let folded = 0;
    run.forEach((r, i) => {
      const forks = r.at.children.size > 1;
      if (long && i >= TREE_HEAD && i < run.length - TREE_TAIL && !forks && r.n !== depth) { folded++; return; }
      if (folded) { fold(ul, folded); folded = 0; }
      for (const [l, c] of r.at.children) {
        if (l === r.main) continue;
        const ls = all.slice(0, r.n - 1).concat(l);
        const fork = el("ul", "fork");
        fork.title = T("fork");
        item(fork, c, ls);
        chain(c, ls, fork);
        ul.append(el("li", "forkbox"));
        ul.lastChild.append(fork);
      }
      item(ul, r.at.children.get(r.main), all.slice(0, r.n));
    });
  };
  const fold = (ul, n) => {
    const li = el("li", "folded", T("folded", { n: n }));
    li.onclick = () => { ex.treeOpen = true; renderTree(); };
    ul.append(li);
  };
  const root = el("a", ex.path === "" ? "cur" : "", T("initial"));
  root.dataset.path = "";
  root.onclick = () => go("", true);
  const ul = el("ul");
  chain(ex.tree, [], ul);
  box.append(root, ul);
}

// TREE_RUN is the longest run of steps the history shows whole; a longer
// one shows its first TREE_HEAD and last TREE_TAIL steps.
const TREE_RUN = 60, TREE_HEAD = 10, TREE_TAIL = 30;

// layout places n nodes of radius r: on a circle wide enough for them
// side by side (the centre of a star first), in a picture that grows
// with the circle (the page scales it to fit).
function layout(n, r) {
  const R = Math.max(160, n * (2 * r + 16) / (2 * Math.PI));
  const W = Math.max(600, 2 * (R + r) + 160), H = Math.max(460, 2 * (R + r) + 70);
  const cx = W / 2, cy = H / 2 + 8;
  const star = ex.info.topology === "star", m = star ? n - 1 : n;
  ex.view = { W, H, r };
  ex.pos = [null];
  for (let i = 1; i <= n; i++) {
    if (star && i === 1) { ex.pos.push([cx, cy]); continue; }
    const k = star ? i - 2 : i - 1, a = -Math.PI / 2 + 2 * Math.PI * k / Math.max(m, 1);
    ex.pos.push([cx + R * Math.cos(a), cy + R * Math.sin(a)]);
  }
}

function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.append(e);
  return e;
}

// stateOf is what labels and colours a node: its state's name, as the
// algorithm says it.
function stateOf(nd) { return nd.state || ""; }

// colour gives each state met its own colour, the same for the whole
// visit: from the name's hash, the next free one if that is taken.
function colour(s) {
  if (!ex.colours.has(s)) {
    let h = 0;
    for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    const used = new Set(ex.colours.values());
    let k = h % PALETTE.length;
    for (let i = 0; i < PALETTE.length && used.has(PALETTE[k]); i++) k = (k + 1) % PALETTE.length;
    ex.colours.set(s, PALETTE[k]);
  }
  return ex.colours.get(s);
}

// textWidth is the width of s drawn in g with class cls.
function textWidth(g, s, cls) {
  const t = svg("text", { class: cls, x: 0, y: -999 }, g);
  t.textContent = s;
  const w = t.getComputedTextLength();
  t.remove();
  return w;
}

// fitText writes s in t, cut with an ellipsis to at most w wide; a cut
// text keeps the whole in its tooltip.
function fitText(t, s, w) {
  t.textContent = s;
  if (t.getComputedTextLength() <= w) return;
  let k = s.length;
  while (k > 1 && (t.textContent = s.slice(0, k - 1) + "…", t.getComputedTextLength() > w)) k--;
  svg("title", {}, t).textContent = s;
}

function drawGraph(n) {
  const g = $("graph"), st = ex.st;
  g.innerHTML = "";
  // the nodes' radius: the longest name or state fits inside, within bounds
  let widest = 0;
  for (const nd of st.nodes) widest = Math.max(widest, textWidth(g, nd.name, "nname"), textWidth(g, nd.alive ? stateOf(nd) : T("crashed"), "sub"));
  const r = Math.max(26, Math.min(44, widest / 2 + 8));
  layout(n, r);
  g.setAttribute("viewBox", "0 0 " + ex.view.W + " " + ex.view.H);
  const defs = svg("defs", {}, g);
  for (const [id, fill] of [["head", "#94a3b8"], ["mhead", "#2563eb"]]) {
    const mk = svg("marker", { id: id, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", fill: fill }, mk);
  }
  drawLinks(g, n, r);
  for (const nd of st.nodes) ex.states.add(stateOf(nd));
  drawNodes(g, r);
  drawMessages(g, r);
  drawLegend();
}

// drawLinks draws the topology's links: a ring's clockwise, with arrows.
function drawLinks(g, n, r) {
  const P = ex.pos, topo = ex.info.topology, links = svg("g", {}, g);
  const line = (a, b) => svg("line", { class: "link", x1: P[a][0], y1: P[a][1], x2: P[b][0], y2: P[b][1] }, links);
  if (topo === "ring") {
    for (let i = 1; i <= n; i++) {
      const [x1, y1] = P[i], [x2, y2] = P[i % n + 1], len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      svg("line", { class: "link", x1: x1 + ux * (r + 2), y1: y1 + uy * (r + 2), x2: x2 - ux * (r + 2), y2: y2 - uy * (r + 2), "marker-end": "url(#head)" }, links);
    }
  } else if (topo === "star") for (let i = 2; i <= n; i++) line(1, i);
  else if (topo === "graph") for (const [a, b] of ex.info.edges || []) line(a, b);
  else for (let a = 1; a <= n; a++) for (let b = a + 1; b <= n; b++) line(a, b);
}

// drawNodes draws every node: its name and state inside, its colour its
// state's, and its marks: a halo on the nodes of the violation, a ring
// in the critical section, a star on a leader.
function drawNodes(g, r) {
  const st = ex.st, P = ex.pos;
  const last = st.labels.length ? lastNode(st.labels[st.labels.length - 1]) : 0;
  const bad = new Set(st.violation ? st.violation.nodes || [] : []);
  for (const nd of st.nodes) {
    const [x, y] = P[nd.index];
    const cls = "node" + (nd.alive ? "" : " dead") + (nd.index === last ? " moved" : "") + (bad.has(nd.index) ? " bad" : "") + (nd.mark ? " m-" + nd.mark : "");
    const gn = svg("g", { class: cls, "data-node": nd.index, "data-state": stateOf(nd) }, g);
    if (bad.has(nd.index)) { svg("circle", { class: "halo", cx: x, cy: y, r: r + 12 }, gn); ex.marks.add("halo"); }
    if (nd.mark === "cs") { svg("circle", { class: "ring", cx: x, cy: y, r: r + 5 }, gn); ex.marks.add("cs"); }
    svg("circle", { class: "body", cx: x, cy: y, r: r, fill: nd.alive ? colour(stateOf(nd)) : "#9ca3af" }, gn);
    if (nd.mark === "leader") { svg("path", { class: "star", d: starPath(x + r * 0.75, y - r * 0.75, 11) }, gn); ex.marks.add("leader"); }
    fitText(svg("text", { class: "nname", x: x, y: y - 7 }, gn), nd.name, 2 * r - 8);
    fitText(svg("text", { class: "sub", x: x, y: y + 9 }, gn), nd.alive ? stateOf(nd) : T("crashed"), 2 * r - 10);
    gn.addEventListener("mouseenter", () => tip(nd.name + (nd.alive ? "" : " (" + T("crashed") + ")") + "\n" + [stateOf(nd), ...nd.fields].join("\n") + (nd.pending && nd.pending.length ? "\n" + T("pending") + ": " + nd.pending.join(", ") : ""), x, y));
    gn.addEventListener("mouseleave", () => { $("tip").hidden = true; });
    gn.addEventListener("click", (e) => { e.stopPropagation(); nodeMenu(nd, x, y); });
  }
}

// starPath is a five-pointed star of radius s centred at x, y.
function starPath(x, y, s) {
  let d = "";
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + k * Math.PI / 5, q = k % 2 ? s * 0.45 : s;
    d += (k ? "L" : "M") + (x + q * Math.cos(a)).toFixed(1) + "," + (y + q * Math.sin(a)).toFixed(1);
  }
  return d + "z";
}

// linkOrder lists the messages in flight by link, each link's in the
// order sent (the first sent first).
function linkOrder(flight) {
  const byLink = new Map();
  for (const f of flight || []) {
    const key = f.from + "-" + f.to;
    if (!byLink.has(key)) byLink.set(key, []);
    byLink.get(key).push(f);
  }
  for (const fs of byLink.values()) fs.sort((a, b) => (a.sent || Infinity) - (b.sent || Infinity) || a.k - b.k);
  return byLink;
}

// drawMessages draws each link with messages in flight as its own arrow,
// beside the reverse one, the messages on it in the order sent (the
// first sent nearest its receiver), then their labels where they do not
// overlap.
function drawMessages(g, r) {
  const st = ex.st, P = ex.pos, labels = [];
  for (const fs of linkOrder(st.flight).values()) {
    const a = fs[0].from, b = fs[0].to, [x1, y1] = P[a], [x2, y2] = P[b];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const off = 7, nx = -uy * off, ny = ux * off; // to the right of the way it goes
    const from = r + 4, to = len - r - 6;
    svg("line", { class: "mlink", x1: x1 + ux * from + nx, y1: y1 + uy * from + ny, x2: x1 + ux * to + nx, y2: y1 + uy * to + ny, "marker-end": "url(#mhead)" }, g);
    const step = Math.min(24, (to - from - 24) / Math.max(fs.length, 1));
    fs.forEach((f, i) => {
      const d = to - 16 - i * step, x = x1 + ux * d + nx, y = y1 + uy * d + ny;
      const deliverable = st.steps.some((s) => s.kind === "deliver" && s.from === f.from && s.node === f.to && s.k === f.k);
      const gm = svg("g", { class: "msg" + (deliverable ? "" : " blocked"), "data-from": f.from, "data-to": f.to, "data-k": f.k, "data-order": i + 1 }, g);
      svg("circle", { cx: x, cy: y, r: 7 }, gm);
      svg("path", { class: "dir", d: "M" + (x + ux * 5) + "," + (y + uy * 5) + " L" + (x - ux * 3 - uy * 4) + "," + (y - uy * 3 + ux * 4) + " L" + (x - ux * 3 + uy * 4) + "," + (y - uy * 3 - ux * 4) + "z" }, gm);
      const text = (f.text.length > 22 ? f.text.slice(0, 21) + "…" : f.text) + (fs.length > 1 ? " · " + T("sentNth", { k: i + 1 }) : "");
      const tx = svg("text", { x: x, y: y }, gm);
      tx.textContent = text;
      svg("title", {}, tx).textContent = f.text + " " + ex.info.names[f.from - 1] + " → " + ex.info.names[f.to - 1] + ": " + T("sentOrder", { k: i + 1, n: fs.length });
      labels.push({ t: tx, x: x, y: y, g: gm });
      gm.addEventListener("click", (e) => { e.stopPropagation(); msgMenu(f, x, y); });
    });
  }
  placeLabels(labels, r);
}

// placeLabels puts each label at the first spot around its message that
// overlaps no node and no label placed before, trying rings of spots
// further and further out; a label with no room is left out (its
// message's tooltip and the list beside say it all) and counted.
function placeLabels(labels, r) {
  const taken = ex.pos.slice(1).map(([x, y]) => ({ x: x - r - 2, y: y - r - 2, w: 2 * r + 4, h: 2 * r + 4 }));
  const hit = (b) => taken.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h);
  let hidden = 0;
  for (const l of labels) {
    const bb = l.t.getBBox(), w = bb.width + 2, h = bb.height;
    let spot = null;
    for (let ring = 0; ring < 6 && !spot; ring++) {
      const d = 10 + ring * h;
      for (const [dx, dy] of [[d, -h / 2], [-d - w, -h / 2], [-w / 2, -d - h], [-w / 2, d], [d, -d - h], [-d - w, -d - h], [d, d], [-d - w, d]]) {
        const b = { x: l.x + dx, y: l.y + dy, w: w, h: h };
        if (b.x >= 0 && b.y >= 0 && b.x + w <= ex.view.W && b.y + h <= ex.view.H && !hit(b)) { spot = b; break; }
      }
    }
    if (!spot) { l.t.setAttribute("display", "none"); hidden++; continue; }
    taken.push(spot);
    l.t.setAttribute("x", spot.x + 1);
    l.t.setAttribute("y", spot.y + h / 2);
    if (Math.hypot(spot.x + w / 2 - l.x, spot.y + h / 2 - l.y) > w / 2 + h) {
      const near = [Math.max(spot.x, Math.min(l.x, spot.x + w)), Math.max(spot.y, Math.min(l.y, spot.y + h))];
      l.g.insertBefore(svg("line", { class: "leader", x1: l.x, y1: l.y, x2: near[0], y2: near[1] }), l.t);
    }
  }
  ex.hiddenLabels = hidden;
}

// drawLegend says what the colours and marks of the graph mean: the
// states met so far, the marks met so far, and the messages' arrows.
function drawLegend() {
  let lg = $("legend");
  if (!lg) {
    lg = el("div", "legend");
    lg.id = "legend";
    $("graph").after(lg);
  }
  lg.innerHTML = "";
  const item = (cls, sw, text) => {
    const s = el("span", "lg " + cls);
    s.append(el("i", "sw " + sw), text);
    lg.append(s, " ");
    return s;
  };
  lg.append(el("b", "", T("legendStates") + ": "));
  for (const s of ex.states) if (s) item("lg-state", "", s).firstChild.style.background = colour(s);
  lg.append(el("br"), el("b", "", T("legendMarks") + ": "));
  if (ex.marks.has("cs")) item("lg-cs", "sw-ring", T("markCS"));
  if (ex.marks.has("leader")) item("lg-leader", "sw-star", T("markLeader"));
  if (ex.marks.has("halo")) item("lg-halo", "sw-halo", T("markHalo"));
  item("lg-moved", "sw-moved", T("markMoved"));
  if (ex.info.crashes > 0) item("lg-dead", "sw-dead", T("crashed"));
  item("lg-msg", "sw-msg", T("markMsg"));
  item("lg-blocked", "sw-blocked", T("markBlocked"));
  if (ex.hiddenLabels) lg.append(el("span", "lg lg-hidden", T("labelsHidden", { n: ex.hiddenLabels })));
}

// lastNode is the node a label's step happened at.
function lastNode(l) {
  const m = /^[dl]\d+-(\d+)|^[tcxr](\d+)/.exec(l);
  return m ? +(m[1] || m[2]) : 0;
}

// tip shows text beside x, y; never over an open menu.
function tip(text, x, y) {
  if (!$("menu").hidden) return;
  const t = $("tip"), [bx, by, bw] = inBox(x, y);
  t.textContent = text; t.hidden = false;
  t.style.left = Math.min(bw - 200, bx + 36) + "px"; t.style.top = (by - 10) + "px";
}

// inBox is where the graph's point x, y is in the box around it (the
// picture is scaled to fit), and the box's width.
function inBox(x, y) {
  const g = $("graph"), box = g.getBoundingClientRect(), m = g.getScreenCTM();
  const p = new DOMPoint(x, y).matrixTransform(m);
  return [p.x - box.left, p.y - box.top, box.width];
}

function showMenu(head, items, x, y) {
  const m = $("menu");
  m.innerHTML = "";
  m.append(el("div", "head", head));
  for (const it of items) {
    if (it.step) {
      const d = el("div", "item");
      d.dataset.label = it.step.label;
      d.append(it.text);
      stepMarks(d, it.step);
      d.onclick = (e) => { e.stopPropagation(); step(it.step.label); };
      m.append(d);
    } else m.append(el("div", "off", it.text));
  }
  const [bx, by, bw] = inBox(x, y);
  m.style.left = Math.min(bw - 240, bx + 20) + "px"; m.style.top = (by + 10) + "px";
  m.hidden = false; $("tip").hidden = true;
}

function hideMenu() { $("menu").hidden = true; }

function nodeMenu(nd, x, y) {
  const st = ex.st, items = [];
  for (const s of st.steps) {
    if (s.node !== nd.index) continue;
    if (s.kind === "command" || s.kind === "fire" || s.kind === "crash" || s.kind === "restart") items.push({ text: s.words, step: s });
  }
  if (!items.length) items.push({ text: st.terminal ? "the run has ended" : "nothing to do at " + nd.name + " now" });
  if (ex.info.crashes === 0 && nd.alive) items.push({ text: "crash: none allowed (check --crashes N)" });
  else if (nd.alive && !st.steps.some((s) => s.kind === "crash" && s.node === nd.index)) items.push({ text: "crash: the budget of " + ex.info.crashes + " is spent" });
  if (!nd.alive && ex.info.restarts === 0) items.push({ text: "restart: none allowed (check --restarts N)" });
  showMenu(nd.name, items, x, y);
}

function msgMenu(f, x, y) {
  const st = ex.st, items = [];
  for (const s of st.steps) {
    if ((s.kind === "deliver" || s.kind === "drop") && s.from === f.from && s.node === f.to && s.k === f.k) items.push({ text: s.words, step: s });
  }
  if (!items.some((i) => i.step.kind === "deliver")) items.unshift({ text: "not deliverable yet: under policy " + ex.info.policy + " the link's head comes first" });
  if (ex.info.drops === 0) items.push({ text: "drop: none allowed (check --drops N)" });
  showMenu(f.text + " " + ex.info.names[f.from - 1] + " → " + ex.info.names[f.to - 1], items, x, y);
}

init().catch((err) => { $("error").hidden = false; $("error").textContent = err.message; ex.ready = true; });
