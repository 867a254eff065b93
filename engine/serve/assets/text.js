// The page's words, in the language the server was asked for (--lang):
// the server writes its table (package lang) into the page as JSON, and
// T(key, args...) looks one up and fills its %s, %d and %v in order (or
// %[n]d, the nth), as Go's fmt does. A key the table lacks shows as «key».
"use strict";

const WORDS = JSON.parse(document.getElementById("words").textContent);

function T(key, ...args) {
  const s = WORDS[key];
  if (s === undefined) return "«" + key + "»";
  let i = 0;
  return s.replace(/%(?:\[(\d+)\])?[sdv%]/g, (m, n) => {
    if (m === "%%") return "%";
    if (n) i = +n - 1; // %[2]d: the second argument, and the next after it
    return String(args[i++]);
  });
}

// propertyName is the name of the property id in the page's language, as
// Go's lang.Lang.Property gives it.
function propertyName(id) { return WORDS["property." + id] ?? id; }

// DETAILS are the detail keys with verbs, longest first, each with the
// expression that matches a detail it formats (a group per verb).
const DETAILS = Object.keys(WORDS).filter((k) => k.startsWith("detail.") && /%[sdv]/.test(k))
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  .map((k) => [k, new RegExp("^" + k.slice(7).split(/%[sdv]/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(.+?)") + "$")]);

// LOG_AND joins the last two names of a list in a detail as a run's log
// writes it: logs are in English, whatever the page's language.
const LOG_AND = " and ";

// detailText is a verdict's detail in the page's language, as Go's
// lang.Lang.Detail gives it: fixed words, or a pattern whose verbs stand
// for the figures and names the detail carries (a promised order among
// them, in the table's words); else the detail as it is.
function detailText(d) {
  if (WORDS["detail." + d] !== undefined) return WORDS["detail." + d];
  for (const [k, re] of DETAILS) {
    const m = re.exec(d);
    if (m) {
      const names = m.slice(1).map((a) => a.split(LOG_AND).join(T("list.and")));
      return T(k, ...names.map((a) => WORDS["order." + a] ?? a)); // a promised order, in words
    }
  }
  return d;
}
