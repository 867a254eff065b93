// ringlab's run viewer: reads an NDJSON run log (header line, events,
// summary line) and shows it step by step. The state at step c is the
// result of applying events 0..c-1 to the initial state; stepping back
// recomputes it from the nearest snapshot (one every SNAP events), so it is
// exact and fast. Everything the log says is written with textContent,
// never as HTML.
"use strict";

const MAX_EVENTS = 250000;        // past this the page shows the first events and says how to narrow the run
const MAX_BYTES = 256 * 1024 * 1024; // the server's limit too
const SNAP = 256;                 // a snapshot every SNAP events

const STATE_COLORS = {
  // mutual exclusion (the chapter's names)
  RELEASED: "#e2e8f0", WANTED: "#fbbf24", HELD: "#22c55e",
  // central coordinator
  FREE: "#e2e8f0", BUSY: "#fb923c",
  // elections
  ASLEEP: "#e2e8f0", CANDIDATE: "#60a5fa", LEADER: "#facc15", FOLLOWER: "#cbd5e1", LOST: "#cbd5e1",
  ELECTED: "#facc15", DEFEATED: "#cbd5e1", PASSIVE: "#cbd5e1", ACTIVE: "#60a5fa",
};
const CRASHED = "#334155";
// caption is what a topology's drawing means.
const caption = (topology) => T("rp.topo." + topology);
const KIND_COLORS = {
  send: "#2563eb", recv: "#16a34a", drop: "#dc2626", dup: "#9333ea", crash: "#111827", recover: "#0891b2",
  cmd: "#0f766e", state: "#7c3aed", enter_cs: "#15803d", exit_cs: "#65a30d", leader: "#ca8a04",
  note: "#94a3b8", violation: "#dc2626",
};

// ---- parsing ---------------------------------------------------------------

// oneLine does to text from a log what the Go renderers' trace.OneLine
// does: a line break, a control character or a bidirectional control
// (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) becomes a space, so
// that a name can neither break a line nor reverse the text around it.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffd]/g;
const MAYBE_UNSAFE = /[\\\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffd]/;
function oneLine(s) { return s.replace(UNSAFE, " "); }

// cleanText is the JSON.parse reviver that passes every string and every
// key of a log line through oneLine.
function cleanText(k, v) {
  if (typeof v === "string") return oneLine(v);
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const key of Object.keys(v)) {
      const c = oneLine(key);
      if (c !== key) { v[c] = v[key]; delete v[key]; }
    }
  }
  return v;
}

function parseLog(text) {
  const run = { header: null, summary: null, events: [], total: 0, truncated: false };
  let lineNo = 0, start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    let obj;
    // an escape or a raw unsafe character may hide one: only then is the line revived
    try { obj = MAYBE_UNSAFE.test(line) ? JSON.parse(line, cleanText) : JSON.parse(line); } catch (e) { throw new Error("line " + lineNo + " is not JSON: this is not an NDJSON run log (write one with --format json)"); }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new Error("line " + lineNo + " is not a JSON object");
    if (obj.kind === "header") { run.header = obj; continue; }
    if (obj.kind === "summary") { run.summary = obj; continue; }
    if (typeof obj.kind !== "string") throw new Error("line " + lineNo + " has no kind: not a run log event");
    run.total++;
    if (run.events.length < MAX_EVENTS) run.events.push(obj); else run.truncated = true;
  }
  if (!run.events.length && !run.summary) throw new Error("the log has no events");
  return run;
}

function guessTopology(alg) {
  alg = (alg || "").trim();
  if (/^election (ring|anonymous|idlist|chang-roberts|franklin)\b/.test(alg)) return "ring";
  if (/^mutex (token-ring|scenario token)/.test(alg)) return "ring";
  if (/^mutex (central|scenario central)/.test(alg)) return "star";
  if (/^election yoyo\b/.test(alg)) return "graph";
  return "complete";
}

// build prepares a parsed log for viewing: names, topology, message pairs, snapshots.
function build(run) {
  const h = run.header || {}, s = run.summary || {};
  const ev = run.events;
  let n = h.nodes || s.nodes || 0;
  for (const e of ev) n = Math.max(n, e.node | 0, e.from | 0, e.to | 0);
  const names = [];
  for (let i = 1; i <= n; i++) {
    const nm = Array.isArray(h.names) && typeof h.names[i - 1] === "string" && h.names[i - 1] ? h.names[i - 1] : "";
    names[i] = nm || "node " + i;
  }
  const alg = h.algorithm || s.algorithm || "";
  let topology = ["ring", "complete", "star", "graph"].includes(h.topology) ? h.topology : guessTopology(alg);
  const edgeSet = new Map();
  const addEdge = (a, b) => { if (a >= 1 && b >= 1 && a <= n && b <= n && a !== b) edgeSet.set(Math.min(a, b) + "-" + Math.max(a, b), [Math.min(a, b), Math.max(a, b)]); };
  if (topology === "graph") {
    if (Array.isArray(h.edges)) for (const e of h.edges) if (Array.isArray(e)) addEdge(e[0] | 0, e[1] | 0);
    if (!edgeSet.size) for (const e of ev) if (e.kind === "send") addEdge(e.from | 0, e.to | 0);
  }
  // Pair every message copy (send or dup) with the recv or drop that ends it, first in first out per link and content.
  const pair = new Int32Array(ev.length).fill(-1);
  const queues = new Map();
  const key = (e) => e.from + ">" + e.to + "|" + JSON.stringify(e.msg || null);
  for (let i = 0; i < ev.length; i++) {
    const e = ev[i];
    if (e.kind === "send" || e.kind === "dup") {
      const k = key(e);
      let q = queues.get(k);
      if (!q) queues.set(k, q = []);
      q.push(i);
    } else if (e.kind === "recv" || e.kind === "drop") {
      const q = queues.get(key(e));
      if (q && q.length) { const j = q.shift(); pair[i] = j; pair[j] = i; }
    }
  }
  const v = { run, n, names, alg, topology, edges: [...edgeSet.values()], pair, snaps: [], violations: [] };
  ev.forEach((e, i) => { if (e.kind === "violation") v.violations.push(i); });
  // snapshots: snaps[j] is the state after j*SNAP events
  let st = initial(n);
  v.snaps.push(clone(st));
  for (let i = 0; i < ev.length; i++) {
    apply(v, st, i);
    if ((i + 1) % SNAP === 0) v.snaps.push(clone(st));
  }
  return v;
}

// ---- state -----------------------------------------------------------------

function initial(n) {
  const nodes = [];
  for (let i = 0; i <= n; i++) nodes.push({ state: "", cs: false, crashed: false, leader: 0, lc: 0, vc: null, last: -1 });
  return { nodes, flight: new Set(), sent: 0, byType: {}, dropped: 0, lastViolation: -1 };
}

function clone(st) {
  return {
    nodes: st.nodes.map((x) => ({ ...x })), flight: new Set(st.flight), sent: st.sent,
    byType: { ...st.byType }, dropped: st.dropped, lastViolation: st.lastViolation,
  };
}

function apply(v, st, i) {
  const e = v.run.events[i];
  const nd = st.nodes[e.node | 0];
  if (nd) {
    if (typeof e.lc === "number") nd.lc = e.lc;
    if (Array.isArray(e.vc)) nd.vc = e.vc;
    nd.last = i;
  }
  switch (e.kind) {
    case "send": {
      st.flight.add(i); st.sent++;
      const t = e.msg && e.msg.type ? String(e.msg.type) : "?";
      st.byType[t] = (st.byType[t] || 0) + 1;
      break;
    }
    case "dup": st.flight.add(i); break;
    case "recv": st.flight.delete(v.pair[i]); break;
    case "drop": st.flight.delete(v.pair[i]); st.dropped++; break;
    case "crash": if (nd) { nd.crashed = true; nd.cs = false; } break;
    case "recover": if (nd) { nd.crashed = false; nd.state = ""; nd.cs = false; nd.leader = 0; } break;
    case "state": if (nd) { nd.state = String(e.state || ""); if (nd.state === "HELD") nd.cs = true; else if (nd.state === "RELEASED" || nd.state === "WANTED") nd.cs = false; } break;
    case "enter_cs": if (nd) nd.cs = true; break;
    case "exit_cs": if (nd) nd.cs = false; break;
    case "leader": if (nd) nd.leader = e.leader | 0; break;
    case "violation": st.lastViolation = i; break;
  }
}

// stateAt returns a fresh copy of the state after c events.
function stateAt(v, c) {
  const j = Math.floor(c / SNAP);
  const st = clone(v.snaps[j]);
  for (let i = j * SNAP; i < c; i++) apply(v, st, i);
  return st;
}

// ---- the viewer ------------------------------------------------------------

const $ = (id) => document.getElementById(id);
const view = { v: null, c: 0, st: null, playing: false, phase: 0, sel: 0, pinned: false, last: 0, loadMs: 0 };
window.ringlab = view; // read by the browser test
view.goto = (c) => goto(c);
view.prof = { stateAt: (c) => stateAt(view.v, c), panel: () => updatePanel(), graph: () => drawGraph(), timeline: () => drawTimeline() };

function el(tag, text, cls) {
  const x = document.createElement(tag);
  if (text !== undefined && text !== null) x.textContent = String(text);
  if (cls) x.className = cls;
  return x;
}

function nm(i) {
  const v = view.v;
  if (!v || !v.names[i]) return T("rp.nodeN", i);
  const s = v.names[i];
  return s === "node " + i ? T("rp.nodeN", i) : s + " (" + T("rp.nodeN", i) + ")";
}
function short(i) { return view.v && view.v.names[i] && view.v.names[i] !== "node " + i ? view.v.names[i] : T("rp.nodeN", i); }

function fields(msg) {
  if (!msg || typeof msg !== "object") return "";
  const parts = [];
  for (const k of Object.keys(msg)) if (k !== "type") parts.push(k + "=" + (typeof msg[k] === "object" ? JSON.stringify(msg[k]) : msg[k]));
  return parts.join(" ");
}
function msgText(msg) {
  if (!msg) return T("rp.aMessage");
  const f = fields(msg);
  return String(msg.type || "?") + (f ? " {" + f + "}" : "");
}

function describe(e) {
  const who = nm(e.node | 0);
  switch (e.kind) {
    case "send": return T("rp.e.send", short(e.from), msgText(e.msg), short(e.to));
    case "recv": return T("rp.e.recv", short(e.to), msgText(e.msg), short(e.from));
    case "drop": return T("rp.e.drop", msgText(e.msg), short(e.from), short(e.to));
    case "dup": return T("rp.e.dup", msgText(e.msg), short(e.from), short(e.to));
    case "crash": return T("rp.e.crash", who);
    case "recover": return T("rp.e.recover", who);
    case "cmd": return T("rp.e.cmd", who, e.cmd + (e.arg ? "@" + e.arg : ""));
    case "state": return T("rp.e.state", who, e.state);
    case "enter_cs": return T("rp.e.enter", who);
    case "exit_cs": return T("rp.e.exit", who);
    case "leader": return T("rp.e.leader", who, e.leader | 0);
    case "note": return who + ": " + e.note;
    case "violation": return "⚠ " + T("rp.violated", propertyName(e.property), detailText(e.detail || ""));
  }
  return who + ": " + e.kind;
}

function load(text, name) {
  name = oneLine(String(name));
  const t0 = performance.now();
  let run;
  try { run = parseLog(text); } catch (err) { showNotice(T("rp.cannotRead", name, err.message)); return false; }
  view.v = build(run);
  view.pinned = false; view.sel = 0; view.playing = false;
  $("title").textContent = name + " · " + (view.v.alg || T("rp.run")) + " · " + T("rp.nNodes", view.v.n) + " · " + T("rp.nEvents", run.total);
  document.title = (view.v.alg || name) + " · ringlab";
  $("list") && ($("list").hidden = true);
  $("viewer").hidden = false;
  const notes = [];
  if (run.truncated) notes.push(T("rp.truncated", run.total.toLocaleString(document.documentElement.lang), MAX_EVENTS.toLocaleString(document.documentElement.lang)));
  if (!run.summary) notes.push(T("rp.noSummaryLine"));
  if (!run.header) notes.push(T("rp.noHeader", view.v.topology));
  showNotice(notes.join(" "));
  $("slider").max = run.events.length;
  $("viol").hidden = view.v.violations.length === 0;
  const marks = $("marks"); marks.textContent = ""; // the violations, marked under the slider
  for (const i of view.v.violations.slice(0, 200)) {
    const m = el("i"); m.style.left = (100 * (i + 1) / Math.max(1, run.events.length)) + "%"; m.title = T("rp.violationAt", i + 1);
    marks.appendChild(m);
  }
  fillStatic();
  setupCanvas();
  // A run with a violation opens at the first one.
  goto(view.v.violations.length ? view.v.violations[0] + 1 : 0);
  view.loadMs = performance.now() - t0;
  return true;
}

function showNotice(s) { $("notice").textContent = s; $("notice").hidden = !s; }

function fillStatic() {
  const v = view.v, s = v.run.summary || {}, h = v.run.header || {};
  const ul = $("verdicts"); ul.textContent = "";
  for (const vd of s.verdicts || []) {
    const li = el("li", propertyName(vd.property) + (vd.detail ? ": " + detailText(vd.detail) : ""), vd.ok ? "ok" : "fail");
    ul.appendChild(li);
  }
  if (!(s.verdicts || []).length) ul.appendChild(el("li", T("rp.noVerdicts")));
  $("replay").textContent = s.replay || h.replay || T("rp.notSaid");
  // legend: the states this run uses
  const states = new Set();
  for (const e of v.run.events) if (e.kind === "state" && e.state) states.add(String(e.state));
  const lg = $("legend"); lg.textContent = "";
  const add = (color, label, ring) => {
    const sp = el("span"); const i = el("i"); i.style.background = color;
    if (ring) { i.style.background = "#fff"; i.style.border = "3px solid " + ring; }
    sp.appendChild(i); sp.appendChild(document.createTextNode(label)); lg.appendChild(sp);
  };
  add("#fff", T("rp.noState"));
  for (const x of states) add(stateColor(x), x);
  if (v.run.events.some((e) => e.kind === "crash")) add(CRASHED, T("ex.crashed"));
  if (v.run.events.some((e) => e.kind === "enter_cs")) add("#fff", T("rp.inCS"), "#16a34a");
  add("#fff", T("rp.thisNode"), "#111827");
}

function stateColor(s) {
  const known = STATE_COLORS[s] || STATE_COLORS[s.toUpperCase()];
  if (known) return known;
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return "hsl(" + (h % 360) + ",70%,75%)";
}
function typeColor(t) {
  let h = 7;
  for (const ch of String(t)) h = (h * 33 + ch.charCodeAt(0)) >>> 0;
  return "hsl(" + (h % 360) + ",65%,38%)";
}

// goto shows the state after c events (c = 0: before the first).
function goto(c) {
  const v = view.v;
  if (!v) return;
  c = Math.max(0, Math.min(v.run.events.length, c | 0));
  if (view.st && c === view.c + 1) apply(v, view.st, c - 1); // one step forward: no recomputation
  else view.st = stateAt(v, c);
  view.c = c;
  if (!view.pinned) view.sel = c > 0 ? (v.run.events[c - 1].node | 0) : 1;
  updatePanel();
  draw();
}

function cur() { return view.c > 0 ? view.v.run.events[view.c - 1] : null; }

// offenders are the nodes a violation is about: two in the critical section, two leaders, ...
function offenders(st) {
  const inCS = [], leaders = [];
  for (let i = 1; i <= view.v.n; i++) {
    const x = st.nodes[i];
    if (x.cs && !x.crashed) inCS.push(i);
    if ((x.state === "LEADER" || x.state === "ELECTED") && !x.crashed) leaders.push(i);
  }
  return { inCS, leaders };
}

function updatePanel() {
  const v = view.v, st = view.st, c = view.c, e = cur(), ev = v.run.events;
  $("slider").value = c;
  const t = e ? e.t : 0;
  $("pos").textContent = T("ex.step", c) + " / " + ev.length + " · t=" + t;
  $("stepTitle").textContent = c === 0 ? T("rp.beforeFirst") : T("rp.stepAt", c, t);
  const what = $("what");
  what.textContent = e ? describe(e) : T("rp.nothingYet");
  what.className = "what" + (e && e.kind === "violation" ? " violation" : "");
  $("raw").textContent = e ? JSON.stringify(e) : "";
  // banner: the latest violation at or before this step
  const b = $("banner");
  if (st.lastViolation >= 0) {
    const ve = ev[st.lastViolation];
    const off = offenders(st);
    let why = ve.detail || "";
    if (off.inCS.length >= 2) why = T("rp.inCSAtOnce", off.inCS.map(nm).join(T("rp.and")));
    else if (off.leaders.length >= 2) why += T("rp.leadersNow", off.leaders.map(nm).join(T("rp.and")));
    b.textContent = "⚠ " + T("rp.violatedAt", propertyName(ve.property), st.lastViolation + 1, ve.t) + " " + detailText(why);
    b.className = "banner" + (st.lastViolation + 1 === c || off.inCS.length >= 2 ? "" : " past");
    b.hidden = false;
  } else if (v.violations.length) {
    b.textContent = T("rp.breaksAt", v.violations[0] + 1);
    b.className = "banner past"; b.hidden = false;
  } else b.hidden = true;
  // nodes table
  const tb = $("nodes").tBodies[0];
  if (tb.rows.length !== v.n) {
    tb.textContent = "";
    for (let i = 1; i <= v.n; i++) {
      const tr = el("tr"); tr.dataset.node = i;
      tr.appendChild(el("td", nm(i))); tr.appendChild(el("td")); tr.appendChild(el("td"));
      tr.addEventListener("click", () => select(i));
      tb.appendChild(tr);
    }
  }
  const curNode = e ? e.node | 0 : 0;
  for (let i = 1; i <= v.n; i++) {
    const x = st.nodes[i], tr = tb.rows[i - 1];
    const label = x.crashed ? T("ex.crashed") : (x.state || "—");
    const more = (x.cs ? " " + T("rp.inCSRow") : "") + (x.leader ? " " + T("rp.leaderRow", x.leader) : "");
    const key = label + "|" + more + "|" + x.lc + "|" + (i === view.sel) + "|" + (i === curNode);
    if (tr._key === key) continue; // only rows that changed touch the page
    tr._key = key;
    const chip = tr.cells[1]; chip.textContent = "";
    const sp = el("span", label, "chip"); sp.style.background = x.crashed ? CRASHED : (x.state ? stateColor(x.state) : "#fff");
    if (x.crashed) sp.style.color = "#fff";
    chip.appendChild(sp);
    if (more) chip.appendChild(document.createTextNode(more));
    tr.cells[2].textContent = T("rp.lc", x.lc);
    tr.classList.toggle("sel", i === view.sel);
    tr.classList.toggle("cur", i === curNode);
  }
  // selected node
  const x = st.nodes[view.sel];
  const ni = $("nodeInfo"); ni.textContent = "";
  if (x) {
    ni.appendChild(el("b", nm(view.sel) + ": "));
    ni.appendChild(document.createTextNode((x.crashed ? T("ex.crashed") : (x.state || T("rp.noState"))) + (x.cs ? ", " + T("rp.inCS") : "") +
      (x.leader ? T("rp.takesLeader", x.leader) : "") + T("rp.lamportClock", x.lc) + (x.vc ? T("rp.vectorClock", x.vc.join(",")) : "") +
      (x.last >= 0 ? T("rp.lastEvent", x.last + 1) : "")));
  }
  // the steps just before this one, for context (click to go there)
  const rc = $("recent"); rc.textContent = "";
  for (let i = Math.max(0, c - 8); i < c; i++) {
    const li = el("li", (i + 1) + ". " + describe(ev[i]), i === c - 1 ? "now" : "");
    if (ev[i].kind === "violation") li.classList.add("bad");
    li.addEventListener("click", () => { stop(); goto(i + 1); });
    rc.appendChild(li);
  }
  if (!c) rc.appendChild(el("li", T("rp.nothing")));
  // messages in flight
  const fl = $("flight"); fl.textContent = "";
  let k = 0;
  for (const i of st.flight) {
    if (k++ >= 12) { fl.appendChild(el("li", T("rp.andMore", st.flight.size - 12))); break; }
    const m = ev[i];
    fl.appendChild(el("li", short(m.from) + " → " + short(m.to) + ": " + msgText(m.msg) + (m.kind === "dup" ? " " + T("rp.duplicate") : "")));
  }
  if (!st.flight.size) fl.appendChild(el("li", T("ex.none")));
  // counts against the whole run and the theory
  const s = v.run.summary || {}, cn = $("counts"); cn.textContent = "";
  const types = new Set([...Object.keys(s.by_type || {}), ...Object.keys(st.byType)]);
  const parts = [...types].sort().map((ty) => ty + " " + (st.byType[ty] || 0) + "/" + ((s.by_type || {})[ty] ?? "?"));
  cn.appendChild(el("div", T("rp.all", st.sent + "/" + (s.messages ?? "?")) + (parts.length ? " · " + parts.join(" · ") : "") + (st.dropped ? " · " + T("rp.lostSoFar", st.dropped) : "")));
  const extra = s.extra || {};
  if (extra.theory) cn.appendChild(el("div", T("rp.theory", extra.theory))).style.fontWeight = "600";
  for (const key of Object.keys(extra)) if (key !== "theory") cn.appendChild(el("div", key + ": " + (typeof extra[key] === "object" ? JSON.stringify(extra[key]) : extra[key])));
}

function select(i) { view.sel = i; view.pinned = true; updatePanel(); draw(); }

// ---- drawing ---------------------------------------------------------------

const gfx = { pos: [], r: 10, W: 0, H: 0, tlW: 0, tlH: 0, cols: 0, start: 0 };

function setupCanvas() {
  for (const id of ["graph", "timeline"]) {
    const cv = $(id), r = cv.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    cv.width = Math.max(1, Math.round(r.width * dpr)); cv.height = Math.max(1, Math.round(r.height * dpr));
    cv.getContext("2d").setTransform(dpr, 0, 0, dpr, 0, 0);
    if (id === "graph") { gfx.W = r.width; gfx.H = r.height; } else { gfx.tlW = r.width; gfx.tlH = r.height; }
  }
  layout();
}

function layout() {
  const v = view.v, n = v.n, W = gfx.W, H = gfx.H - 28; // room for the legend
  const cx = W / 2, cy = H / 2 + 6, R = Math.max(20, Math.min(W, H) / 2 - (n > 40 ? 24 : 58));
  gfx.r = Math.max(3, Math.min(30, (2 * Math.PI * R / Math.max(n, 1)) * 0.33));
  gfx.pos = [null];
  const star = v.topology === "star";
  const m = star ? n - 1 : n;
  for (let i = 1; i <= n; i++) {
    if (star && i === 1) { gfx.pos.push([cx, cy]); continue; }
    const k = star ? i - 2 : i - 1;
    const a = -Math.PI / 2 + 2 * Math.PI * k / Math.max(m, 1);
    gfx.pos.push([cx + R * Math.cos(a), cy + R * Math.sin(a)]);
  }
}

function arrow(ctx, x1, y1, x2, y2, r, head) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  const sx = x1 + r * Math.cos(a), sy = y1 + r * Math.sin(a), ex = x2 - r * Math.cos(a), ey = y2 - r * Math.sin(a);
  ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
  if (r >= 6 || head) {
    ctx.beginPath(); ctx.moveTo(ex, ey);
    ctx.lineTo(ex - 8 * Math.cos(a - 0.4), ey - 8 * Math.sin(a - 0.4));
    ctx.lineTo(ex - 8 * Math.cos(a + 0.4), ey - 8 * Math.sin(a + 0.4));
    ctx.closePath(); ctx.fill();
  }
}

// progress is how far along its link a message is at the shown time.
function progress(i, now) {
  const v = view.v, ev = v.run.events, e = ev[i], j = v.pair[i];
  if (j < 0) return 0.5;
  const t0 = e.t, t1 = ev[j].t;
  if (!(t1 > t0)) { // same instant (or live times): by steps instead
    const span = j - i;
    return Math.max(0.3, Math.min(0.7, (view.c + view.phase - 1 - i) / Math.max(span, 1)));
  }
  return Math.max(0.3, Math.min(0.7, (now - t0) / (t1 - t0)));
}

function draw() {
  const v = view.v; if (!v) return;
  drawGraph(); drawTimeline();
}

function drawGraph() {
  const v = view.v, st = view.st, ctx = $("graph").getContext("2d"), r = gfx.r, P = gfx.pos, n = v.n, ev = v.run.events;
  ctx.clearRect(0, 0, gfx.W, gfx.H);
  // links
  ctx.strokeStyle = "#cbd5e1"; ctx.fillStyle = "#cbd5e1"; ctx.lineWidth = 1.5;
  if (v.topology === "ring" && r + 2 >= 6) for (let i = 1; i <= n; i++) arrow(ctx, ...P[i], ...P[i % n + 1], r + 2);
  else if (v.topology === "ring") { ctx.beginPath(); for (let i = 1; i <= n; i++) { ctx.moveTo(...P[i]); ctx.lineTo(...P[i % n + 1]); } ctx.stroke(); }
  else if (v.topology === "star") for (let i = 2; i <= n; i++) arrow(ctx, ...P[1], ...P[i], 0);
  else if (v.topology === "graph") for (const [a, b] of v.edges) arrow(ctx, ...P[a], ...P[b], 0);
  else if (n <= 24) { ctx.lineWidth = 0.7; for (let a = 1; a <= n; a++) for (let b = a + 1; b <= n; b++) arrow(ctx, ...P[a], ...P[b], 0); }
  ctx.fillStyle = "#64748b"; ctx.font = "12px system-ui, sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "top";
  ctx.fillText(caption(v.topology), 8, 6);
  const e = cur();
  const off = st.lastViolation >= 0 ? offenders(st) : { inCS: [], leaders: [] };
  const bad = new Set(off.inCS.length >= 2 ? off.inCS : off.leaders.length >= 2 ? off.leaders : []);
  // nodes
  const big = r >= 14;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (let i = 1; i <= n; i++) {
    const [x, y] = P[i], nd = st.nodes[i];
    if (bad.has(i)) {
      ctx.beginPath(); ctx.arc(x, y, r + 12, 0, 2 * Math.PI); ctx.fillStyle = "rgba(220,38,38,0.25)"; ctx.fill();
      ctx.lineWidth = 3; ctx.strokeStyle = "#dc2626"; ctx.stroke();
    }
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = nd.crashed ? CRASHED : nd.state ? stateColor(nd.state) : "#fff"; ctx.fill();
    ctx.lineWidth = e && (e.node | 0) === i ? 4 : 1.5; ctx.strokeStyle = e && (e.node | 0) === i ? "#111827" : "#475569";
    if (i === view.sel && view.pinned) ctx.setLineDash([4, 3]);
    ctx.stroke(); ctx.setLineDash([]);
    if (nd.cs) { ctx.beginPath(); ctx.arc(x, y, r + 4, 0, 2 * Math.PI); ctx.lineWidth = 4; ctx.strokeStyle = "#16a34a"; ctx.stroke(); }
    if (nd.crashed && r >= 6) { ctx.strokeStyle = "#fff"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(x - r / 2, y - r / 2); ctx.lineTo(x + r / 2, y + r / 2); ctx.moveTo(x + r / 2, y - r / 2); ctx.lineTo(x - r / 2, y + r / 2); ctx.stroke(); }
    if (big || n <= 40) {
      const name = v.names[i] === "node " + i ? String(i) : v.names[i]; // without names, the index fits inside
      ctx.fillStyle = nd.crashed ? "#fff" : "#111827";
      ctx.font = (big ? "bold 14px" : "11px") + " system-ui, sans-serif";
      if (big && name.length <= 6) ctx.fillText(name, x, y);
      // below the node: the name (if it did not fit), the state, CS and leader
      const lines = [];
      if (!(big && name.length <= 6)) lines.push(name);
      if (big) {
        lines.push(nd.crashed ? T("ex.crashed") : nd.state || "");
        if (nd.cs) lines.push(T("rp.inCSShort"));
        if (nd.leader) lines.push(T("rp.leaderID", nd.leader));
      }
      ctx.fillStyle = "#111827"; ctx.font = "12px system-ui, sans-serif";
      lines.filter(Boolean).forEach((s, k) => ctx.fillText(s, x, y + r + (bad.has(i) ? 22 : 14) + 14 * k));
    }
  }
  // messages in flight
  const now = e ? e.t + (view.playing && view.c < ev.length ? view.phase * (ev[view.c].t - e.t) : 0) : 0;
  const label = st.flight.size <= 12 || r >= 14;
  for (const i of st.flight) {
    const m = ev[i]; if (!P[m.from] || !P[m.to]) continue;
    const p = progress(i, now), [x1, y1] = P[m.from], [x2, y2] = P[m.to];
    const x = x1 + (x2 - x1) * p, y = y1 + (y2 - y1) * p;
    const col = typeColor(m.msg && m.msg.type);
    if (label) { // the trail from the sender (left out when there are too many to read)
      ctx.strokeStyle = col; ctx.lineWidth = 2; ctx.setLineDash([5, 4]);
      ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x, y); ctx.stroke(); ctx.setLineDash([]);
    }
    ctx.beginPath(); ctx.arc(x, y, label ? 6 : 3, 0, 2 * Math.PI); ctx.fillStyle = col; ctx.fill();
    if (label) bubble(ctx, x, y, msgText(m.msg) + (m.kind === "dup" ? " (dup)" : ""), col, i === view.c - 1);
  }
  // a lost message vanishes with a mark, for a few steps
  for (let i = Math.max(0, view.c - 4); i < view.c; i++) {
    const d = ev[i]; if (d.kind !== "drop" || !P[d.from] || !P[d.to]) continue;
    const [x1, y1] = P[d.from], [x2, y2] = P[d.to], x = (x1 + x2) / 2, y = (y1 + y2) / 2;
    ctx.strokeStyle = "#dc2626"; ctx.lineWidth = 4; ctx.beginPath();
    ctx.moveTo(x - 9, y - 9); ctx.lineTo(x + 9, y + 9); ctx.moveTo(x + 9, y - 9); ctx.lineTo(x - 9, y + 9); ctx.stroke();
    bubble(ctx, x, y + 22, "lost: " + msgText(d.msg), "#dc2626", i === view.c - 1);
  }
  // the message just received: an arrow into its receiver
  if (e && e.kind === "recv" && P[e.from] && P[e.to]) {
    ctx.strokeStyle = "#16a34a"; ctx.fillStyle = "#16a34a"; ctx.lineWidth = 3;
    const [x1, y1] = P[e.from], [x2, y2] = P[e.to];
    arrow(ctx, x1 + (x2 - x1) * 0.6, y1 + (y2 - y1) * 0.6, x2, y2, r + 3);
    bubble(ctx, x1 + (x2 - x1) * 0.7, y1 + (y2 - y1) * 0.7 - 16, "received: " + msgText(e.msg), "#15803d", true);
  }
}

function bubble(ctx, x, y, text, col, strong) {
  ctx.font = (strong ? "bold " : "") + "12px system-ui, sans-serif";
  const w = ctx.measureText(text).width + 10, h = 18;
  let bx = Math.max(2, Math.min(gfx.W - w - 2, x - w / 2)), by = y - h - 6;
  if (by < 2) by = y + 8;
  ctx.fillStyle = "rgba(255,255,255,0.92)"; ctx.strokeStyle = col; ctx.lineWidth = strong ? 2 : 1;
  ctx.beginPath(); ctx.rect(bx, by, w, h); ctx.fill(); ctx.stroke();
  ctx.fillStyle = col; ctx.textAlign = "left"; ctx.textBaseline = "middle";
  ctx.fillText(text, bx + 5, by + h / 2 + 1);
  ctx.textAlign = "center";
}

function drawTimeline() {
  const v = view.v, ev = v.run.events, ctx = $("timeline").getContext("2d"), W = gfx.tlW, H = gfx.tlH, n = v.n;
  ctx.clearRect(0, 0, W, H);
  const labelW = n <= 60 ? 110 : 10, top = 14, laneH = (H - top - 4) / Math.max(n, 1);
  const colW = 22, cols = Math.max(5, Math.floor((W - labelW - 10) / colW));
  let start = Math.max(0, view.c - 1 - Math.floor(cols * 0.6));
  start = Math.max(0, Math.min(start, ev.length - cols));
  gfx.cols = cols; gfx.start = start; gfx.labelW = labelW; gfx.colW = colW;
  const X = (i) => labelW + (i - start) * colW + colW / 2, Y = (nd) => top + (nd - 0.5) * laneH;
  // cursor
  if (view.c > 0) { ctx.fillStyle = "#fef08a"; ctx.fillRect(X(view.c - 1) - colW / 2, 0, colW, H); }
  // violations in the window
  for (const i of v.violations) if (i >= start && i < start + cols) { ctx.fillStyle = "rgba(220,38,38,0.18)"; ctx.fillRect(X(i) - colW / 2, 0, colW, H); }
  // lanes
  ctx.font = "11px system-ui, sans-serif"; ctx.textBaseline = "middle"; ctx.textAlign = "right";
  ctx.strokeStyle = "#e2e8f0"; ctx.lineWidth = 1; ctx.fillStyle = "#334155";
  ctx.beginPath();
  for (let i = 1; i <= n; i++) {
    ctx.moveTo(labelW, Y(i)); ctx.lineTo(W, Y(i));
    if (labelW > 20 && laneH >= 9) ctx.fillText(short(i), labelW - 6, Y(i));
  }
  ctx.stroke();
  // step numbers
  ctx.textAlign = "center"; ctx.fillStyle = "#64748b"; ctx.font = "10px system-ui, sans-serif";
  for (let i = start; i < Math.min(ev.length, start + cols); i++) if ((i + 1) % 5 === 0 || i === view.c - 1) ctx.fillText(String(i + 1), X(i), 6);
  // messages: arrows from send (or dup) to recv (or drop), for every receipt in or just past the window
  const end = Math.min(ev.length, start + cols);
  for (let i = start; i < Math.min(ev.length, end + cols); i++) {
    const e = ev[i];
    if (e.kind !== "recv" && e.kind !== "drop") continue;
    const j = v.pair[i]; if (j < 0 || j >= end) continue;
    const s = ev[j];
    ctx.strokeStyle = e.kind === "drop" ? "#dc2626" : typeColor(s.msg && s.msg.type); ctx.fillStyle = ctx.strokeStyle; ctx.lineWidth = 1.3;
    if (e.kind === "drop") { // lost half way, with a cross
      const mx = X(i), my = (Y(s.from) + Y(e.to)) / 2;
      ctx.beginPath(); ctx.moveTo(X(j), Y(s.from)); ctx.lineTo(mx, my);
      ctx.moveTo(mx - 4, my - 4); ctx.lineTo(mx + 4, my + 4); ctx.moveTo(mx + 4, my - 4); ctx.lineTo(mx - 4, my + 4); ctx.stroke();
    } else arrow(ctx, X(j), Y(s.from), X(i), Y(e.to), 3, laneH >= 9);
  }
  // events
  for (let i = start; i < end; i++) {
    const e = ev[i], nd = e.kind === "drop" || e.kind === "dup" ? e.from : e.node | 0; if (!nd) continue;
    ctx.fillStyle = KIND_COLORS[e.kind] || "#64748b";
    const rr = e.kind === "violation" ? 6 : Math.min(4.5, Math.max(2, laneH / 3));
    ctx.beginPath(); ctx.arc(X(i), Y(nd), rr, 0, 2 * Math.PI); ctx.fill();
  }
  // the future is pale
  const fx = X(view.c) - colW / 2;
  if (fx < W) { ctx.fillStyle = "rgba(255,255,255,0.6)"; ctx.fillRect(Math.max(labelW, fx), 0, W, H); }
}

// ---- controls --------------------------------------------------------------

function step(d) { stop(); goto(view.c + d); }
function stop() { if (view.playing) { view.playing = false; view.phase = 0; $("play").textContent = "▶ play"; draw(); } }
function play() {
  if (!view.v) return;
  if (view.playing) { stop(); return; }
  if (view.c >= view.v.run.events.length) goto(0);
  view.playing = true; view.phase = 0; view.last = performance.now(); $("play").textContent = "⏸ pause";
  requestAnimationFrame(frame);
}
function frame(now) {
  if (!view.playing) return;
  const speed = +$("speed").value, dt = Math.max(0, Math.min(0.25, (now - view.last) / 1000));
  view.last = now;
  view.phase += dt * speed;
  let k = 0;
  while (view.phase >= 1 && k < 1000) {
    view.phase -= 1; k++;
    if (view.c >= view.v.run.events.length) { stop(); return; }
    view.st && apply(view.v, view.st, view.c); view.c++;
  }
  if (k) { if (!view.pinned) view.sel = view.v.run.events[view.c - 1].node | 0; updatePanel(); }
  draw();
  requestAnimationFrame(frame);
}
function firstViolation() { if (view.v && view.v.violations.length) { stop(); goto(view.v.violations[0] + 1); } }

function pickNode(ev) {
  const r = $("graph").getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
  let best = 0, bd = Infinity;
  for (let i = 1; i <= view.v.n; i++) { const d = Math.hypot(gfx.pos[i][0] - x, gfx.pos[i][1] - y); if (d < bd) { bd = d; best = i; } }
  if (bd <= Math.max(gfx.r + 8, 12)) select(best); else { view.pinned = false; goto(view.c); }
}

function readFile(file) {
  if (!file) return;
  if (file.size > MAX_BYTES) { showNotice(file.name + " is " + Math.round(file.size / 1048576) + " MB; the page reads logs up to 256 MB: narrow the run (fewer --nodes, fewer --requests)."); return; }
  file.text().then((t) => { if (load(t, file.name)) history.replaceState(null, "", "/view"); }, (err) => showNotice(T("rp.cannotRead", file.name, err)));
}

function init() {
  const body = document.body;
  $("file").addEventListener("change", (e) => readFile(e.target.files[0]));
  body.addEventListener("dragover", (e) => { e.preventDefault(); body.classList.add("dragging"); });
  body.addEventListener("dragleave", () => body.classList.remove("dragging"));
  body.addEventListener("drop", (e) => { e.preventDefault(); body.classList.remove("dragging"); readFile(e.dataTransfer.files[0]); });
  $("first").onclick = () => step(-Infinity);
  $("last").onclick = () => { stop(); goto(view.v ? view.v.run.events.length : 0); };
  $("back").onclick = () => step(-1);
  $("fwd").onclick = () => step(1);
  $("play").onclick = play;
  $("viol").onclick = firstViolation;
  // A clicked button gives the focus back, so that space and the arrows
  // keep stepping the run instead of pressing the button again.
  for (const b of document.querySelectorAll(".controls button")) b.addEventListener("click", () => b.blur());
  $("slider").addEventListener("input", (e) => { stop(); goto(+e.target.value); });
  $("graph").addEventListener("click", (e) => view.v && pickNode(e));
  $("timeline").addEventListener("click", (e) => {
    if (!view.v) return;
    const r = $("timeline").getBoundingClientRect(), x = e.clientX - r.left;
    const i = gfx.start + Math.floor((x - gfx.labelW) / gfx.colW);
    if (x >= gfx.labelW && i >= 0 && i < view.v.run.events.length) { stop(); goto(i + 1); }
  });
  document.addEventListener("keydown", (e) => {
    if (!view.v || e.target.tagName === "SELECT" || (e.target.tagName === "INPUT" && e.target.type !== "range")) return;
    const n = e.shiftKey ? 10 : 1;
    switch (e.key) {
      case " ": play(); break;
      case "ArrowRight": step(n); break;
      case "ArrowLeft": step(-n); break;
      case "Home": step(-Infinity); break;
      case "End": stop(); goto(view.v.run.events.length); break;
      case "v": case "V": firstViolation(); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener("resize", () => { if (view.v) { setupCanvas(); draw(); } });
  const id = body.dataset.run;
  if (id) {
    const t0 = performance.now();
    fetch("/log/" + encodeURIComponent(id)).then((r) => {
      if (!r.ok) throw new Error(T("rp.serverAnswered", r.status));
      return r.text();
    }).then((t) => { load(t, body.dataset.name || "run " + id); view.loadMs = performance.now() - t0; view.ready = true; },
      (err) => { showNotice(T("rp.cannotLoad", err.message)); view.ready = true; });
  } else {
    if (body.dataset.mode === "view") showNotice(T("rp.dropHint"));
    view.ready = true;
  }
}

document.addEventListener("DOMContentLoaded", init);
