// The page of `sleuth serve` (docs/serve.md). Hand-written, no library, no build step.
// Record text only ever reaches the page through textContent and attributes (never as
// markup); the live part is HTML rendered (and escaped) by the server's templates.
"use strict";
(function () {
  // A <details> disclosure ("Advice and exposure", the candidates, the new game's options):
  // its <summary> is role="button" in the templates, so it is found by role and name as
  // every other control is; aria-expanded says whether it is open, kept here in step with
  // the details' own state (a tap, Enter or Space on the summary, or the page opening it)
  function disclosed(d) {
    const s = d.querySelector(":scope > summary");
    if (s) s.setAttribute("aria-expanded", d.open ? "true" : "false");
  }
  function discloseAll(root) { for (const d of root.querySelectorAll("details")) disclosed(d); }
  // "toggle" does not bubble: caught on its way down, for the details of any live part
  document.addEventListener("toggle", (ev) => {
    if (ev.target instanceof HTMLDetailsElement) disclosed(ev.target);
  }, true);
  discloseAll(document);
  // the New game page (web/templates/new.html) has its disclosure only: the rest is the
  // game's page
  if (!document.getElementById("entry-form")) return;
  const NAMES = "<names>", CARDS = "<cards>", RANGES = "<ranges>", WORDS = "<words>";
  // the server's token for changes: a new one each time it starts (freshToken)
  let token = document.querySelector('meta[name="sleuth-token"]').content;
  const box = document.getElementById("statement");
  const statusEl = document.getElementById("status");
  const fixesEl = document.getElementById("fixes");
  const staleEl = document.getElementById("stale");
  const keptEl = document.getElementById("kept");
  const whyEl = document.getElementById("why-text");
  const choicesEl = document.getElementById("choices");
  const working = document.getElementById("working");
  const form = document.getElementById("entry-form");
  // the half-typed statement is kept by record (web/app.py record_key: its path, hashed);
  // the page's title was the key before, shared by records of the same file name
  const record = document.querySelector('meta[name="sleuth-record"]');
  const titleKey = "sleuth-statement:" + document.title;
  const storeKey = record && record.content ? "sleuth-statement:" + record.content : titleKey;
  // ... and by tab: two tabs on one record each keep their own (a reload keeps the tab's
  // session storage); the record's key holds the last draft typed in any tab, for a tab
  // that has none of its own (a new one)
  let tab = null;
  try {
    tab = sessionStorage.getItem("sleuth-tab");
    if (!tab) { tab = Math.random().toString(36).slice(2); sessionStorage.setItem("sleuth-tab", tab); }
  } catch (e) { /* private mode */ }
  const tabKey = tab ? storeKey + ":tab:" + tab : storeKey;
  function keepDraft(text, before) {
    try {
      if (text) {
        localStorage.setItem(tabKey, text);
        localStorage.setItem(storeKey, text);
      } else {
        localStorage.removeItem(tabKey);
        // the record's last draft goes only when it was this tab's (another tab's stays)
        if (localStorage.getItem(storeKey) === before) localStorage.removeItem(storeKey);
      }
    } catch (e) { /* private mode */ }
  }
  let E = null;              // the tap entry's data (web/live.py entry_data)
  let version = null;        // the record version the page shows
  // Versions only move forward: ``epoch`` counts the versions this page's own saves
  // returned; an answer to a request made before the last of them (a live part, the poll's
  // version) may be of an older version, and never replaces the one the page knows
  let epoch = 0;
  let ownSaved = null;       // the version this page's last change saved
  let whatif = null;         // the statement of the hypothetical sheet shown, if any
  let busy = 0;
  let loading = null, reloadAgain = false;

  // ----- the entry panel: on a phone fixed to the bottom, "Entry" folds it to its bar --
  const entry = document.getElementById("entry");
  const toggle = document.getElementById("entry-toggle");
  function openEntry(open) {
    entry.classList.toggle("collapsed", !open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    // the sheet is compact while the panel is open (app.css: all 13 rows above it)
    document.documentElement.classList.toggle("entry-open", open);
    fitCells();
  }
  // A sheet cell is a button that explains its card ("why") only where it is a finger's
  // size: not while the panel is open on a phone (the grid is compact then: 24 px rows),
  // nor in columns under 44 px (Clue with many players on a phone). Elsewhere the cell is
  // plain text, neither a button nor focusable, and the page's hint says how to ask why.
  // The cell's name stays on its table cell ("4H: Ben").
  const phone = window.matchMedia("(max-width:899px)");
  function fitCells() {
    const compact = phone.matches && document.documentElement.classList.contains("entry-open");
    const cells = [...document.querySelectorAll("#live table.sheet.grid .cell")];
    const wide = cells.map((c) => c.parentElement.getBoundingClientRect().width >= 44);
    cells.forEach((c, i) => {
      const text = compact || !wide[i];
      if (text === (c.tagName !== "BUTTON")) return;
      const n = document.createElement(text ? "span" : "button");
      n.className = "cell";
      n.dataset.card = c.dataset.card;
      if (c.dataset.full !== undefined) n.dataset.full = c.dataset.full;
      if (!text) {
        n.type = "button";
        n.setAttribute("aria-label", c.parentElement.getAttribute("aria-label"));
      }
      n.append(...c.childNodes);
      c.replaceWith(n);
    });
    const hint = document.querySelector("#live .cell-hint");
    if (hint) hint.hidden = !document.querySelector("#live table.sheet.grid span.cell");
    fitNames();
  }
  phone.addEventListener("change", fitCells);
  window.addEventListener("resize", fitNames);
  window.addEventListener("resize", () => fitBox());

  // A player's name too long for its place on the sheet (Mystery Hand's holder in a cell,
  // Clue's column head, Literature's holder or likeliest holder "Ben 40%", and a team or
  // player in Literature's Hands table) is shown in a smaller font and, if it still does
  // not fit, as the longest prefix that fits and no other player's name starts with
  // ("Barthol."), the key under the sheet giving it in full. The accessible names stay
  // whole (a cell's is on it, a table's head or cell keeps the name for screen readers
  // beside the shortened one).
  function fitNames() {
    // a card's name too long for its row head (Clue's "Conservatory" at 360 px) in a
    // smaller font, as a player's name is (its accessible name is the row's, whole)
    for (const th of document.querySelectorAll("#live table.sheet.clue tbody th")) {
      th.classList.remove("tight");
      if (th.scrollWidth > th.clientWidth) th.classList.add("tight");
    }
    // ... and a figure too wide for its column (six players and the case file at 320 px:
    // "30%" in 30 px), never cut to "3…"
    for (const c of document.querySelectorAll("#live table.sheet.clue .cell")) {
      c.classList.remove("tight");
      if (c.scrollWidth > c.clientWidth) c.classList.add("tight");
    }
    const old = document.querySelector("#live .name-key");
    if (old) old.remove();
    const sheet = document.querySelector("#live table.sheet");
    if (!sheet || !E) return;
    const groups = new Map();               // the same text in places of the same width
    for (const el of document.querySelectorAll("#live table.sheet.grid .cell,"
        + " #live table.sheet.grid thead th, #live table.sheet.halves .who, #live table.hands .name")) {
      if (el.dataset.full === undefined) el.dataset.full = el.textContent;
      const full = el.dataset.full;
      // "Ana", "m:Ana" (Ana's mystery hand), "Ana 40%": the name and what stands beside it
      const m = full.match(/^(m:)?(\S+)(\s.*)?$/);
      if (!m || !E.names.includes(m[2])) continue;
      const room = roomOf(el);
      const at = full + "\n" + room;
      if (!groups.has(at)) groups.set(at, { parts: m, room: room, els: [] });
      groups.get(at).els.push(el);
    }
    if (!groups.size) return;
    // the widths are measured on a probe out of the sheet (no layout of the table per try)
    const probe = document.createElement("span");
    probe.setAttribute("aria-hidden", "true");
    probe.style.cssText = "position:absolute;left:-9999px;top:0;visibility:hidden;white-space:pre";
    document.body.append(probe);
    const done = [];
    for (const { parts, room, els } of groups.values()) {
      const [full, lead = "", name, tail = ""] = parts;
      const el = els[0];
      // what must stand on one line: the whole text in the grid; Literature's name alone
      // (its chance may wrap under it)
      const line = (nm) => lead + nm + (el.classList.contains("who") ? "" : tail);
      const fonts = [false, true].map((tight) => { el.classList.toggle("tight", tight); return fontOf(el); });
      const fits = (text, font) => {
        probe.style.font = font;
        probe.textContent = text;
        return probe.getBoundingClientRect().width <= room - 1;
      };
      let shown = full, tight = !fits(line(name), fonts[0]);
      if (tight && !fits(line(name), fonts[1])) {
        const chars = Array.from(name);
        const others = E.names.filter((n) => n !== name).map(fold);
        let short = null;
        for (let k = chars.length - 1; k >= 1; k--) {
          const start = chars.slice(0, k).join("");
          if (others.some((o) => o.startsWith(fold(start)))) break;   // not one player's
          short = start + ".";
          if (fits(line(short), fonts[1])) break;
        }
        if (!short || !fits(line(short), fonts[1])) {
          // names alike to their last letters (Bartholomew, Bartholomeus): the longest
          // start and end that fit and no other name has both of ("Barth.ew")
          short = abbreviation(chars, others, (t) => fits(line(t), fonts[1])) || short;
        }
        if (short) shown = lead + short + tail;
      }
      // no prefix of one player's fits (a Hands table's name): it wraps, not spills over
      const spill = shown === full && tight && !fits(line(name), fonts[1]);
      done.push({ els, full, lead, tail, name, tight, spill, short: shown === full ? null : shown.slice(lead.length, shown.length - tail.length) });
    }
    probe.remove();
    // one short form a name, wherever it is cut: the shortest any of its places needs (it
    // fits where a longer one does), so that the key says each name once
    const shortest = new Map();
    for (const d of done) {
      if (d.short && (!shortest.has(d.name) || Array.from(d.short).length < Array.from(shortest.get(d.name)).length)) {
        shortest.set(d.name, d.short);
      }
    }
    const key = [];
    for (const d of done) {
      const short = d.short ? shortest.get(d.name) : null;
      if (short) key.push(short + " = " + d.name);
      for (const other of d.els) {
        nameIn(other, d.full, short ? d.lead + short + d.tail : d.full, d.tight);
        other.classList.toggle("spill", d.spill);
      }
    }
    if (key.length) {
      const p = document.createElement("p");
      p.className = "name-key";
      p.textContent = "Names shortened: " + [...new Set(key)].join("; ");
      sheet.after(p);
    }
  }

  // ``chars`` (a name's characters) as its first letters, ".", its last ones (one to three):
  // the longest such text that ``fits`` and is no other name's (``others``, folded), or null.
  function abbreviation(chars, others, fits) {
    for (let n = chars.length - 1; n >= 2; n--) {
      for (let t = 1; t <= Math.min(3, n - 1); t++) {
        const head = chars.slice(0, n - t).join(""), end = chars.slice(chars.length - t).join("");
        const [h, e] = [fold(head), fold(end)];
        if (others.some((o) => o.startsWith(h) && o.endsWith(e) && o.length >= h.length + e.length)) continue;
        const text = head + "." + end;
        if (fits(text)) return text;
      }
    }
    return null;
  }

  // The width a name has in ``el``: its content box (Literature's holder: its cell's).
  function roomOf(el) {
    const box = el.classList.contains("who") ? el.parentElement : el;
    const st = getComputedStyle(box);
    return box.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
  }

  function fontOf(el) {
    const st = getComputedStyle(el);
    return [st.fontStyle, st.fontWeight, st.fontSize, st.fontFamily].join(" ");
  }

  // ``shown`` in place of the name ``full``; a table's head or cell (a column head, a Hands
  // table's team or player) keeps ``full`` for screen readers
  function nameIn(el, full, shown, tight) {
    el.classList.toggle("tight", tight);
    if (shown === full || (el.tagName !== "TH" && el.tagName !== "TD")) { el.textContent = shown; return; }
    const seen = document.createElement("span");
    seen.setAttribute("aria-hidden", "true");
    seen.textContent = shown;
    const heard = document.createElement("span");
    heard.className = "sr";
    heard.textContent = full;
    el.replaceChildren(seen, heard);
  }
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("#live button.cell");
    if (b) act("why " + b.dataset.card);
  });
  openEntry(true);
  toggle.hidden = false;
  toggle.addEventListener("click", () => openEntry(toggle.getAttribute("aria-expanded") !== "true"));
  // the page's bottom padding is the panel's height, so the last line can scroll above it
  // ... and a control focused inside the panel scrolls clear of its sticky bar (app.css
  // .entry scroll-padding-top: the bar's height)
  const entryBar = entry.querySelector(".entry-bar");
  function fitPadding() {
    document.documentElement.style.setProperty("--entry-h", entry.offsetHeight + "px");
    if (entryBar) entry.style.setProperty("--bar-h", entryBar.offsetHeight + "px");
  }
  if (window.ResizeObserver) new ResizeObserver(fitPadding).observe(entry);
  fitPadding();
  // focus on the page under the fixed Entry panel (Tab to an Edit button): scrolled above
  // it (WCAG 2.4.11), where a browser does not do so for the CSS scroll-padding
  document.addEventListener("focusin", (ev) => {
    const el = ev.target;
    if (!(el instanceof Element)) return;
    if (entry.contains(el)) {
      // never under the panel's own sticky bar (WCAG 2.4.11), where the browser's own
      // scrolling to focus left it there
      if (!entryBar || entryBar.contains(el)) return;
      requestAnimationFrame(() => {
        if (document.activeElement !== el || getComputedStyle(entryBar).position !== "sticky") return;
        const under = entryBar.getBoundingClientRect().bottom - el.getBoundingClientRect().top;
        if (under > 0) entry.scrollTop -= under + 4;
      });
      return;
    }
    const r = el.getBoundingClientRect();
    const top = window.innerHeight - entry.offsetHeight;
    if (r.bottom > top) window.scrollBy(0, r.bottom - top + 8);
  });

  // ----- talking to the server -------------------------------------------------------
  function setBusy(delta) {
    busy += delta;
    const live = document.getElementById("live");
    if (live) live.setAttribute("aria-busy", busy > 0 ? "true" : "false");
    working.hidden = busy <= 0;
  }

  function get(url) {
    return fetch(url, { headers: { "X-Sleuth-Token": token }, cache: "no-store" });
  }

  // One change at a time: a change waits for the one on its way and is sent on the version
  // that one saved (sent at once it would be refused as stale); the same change again
  // while it is on its way (Log tapped twice) is that change, not another.
  const READING = ["why", "whatif", "sheet", "suggest", "help"];
  const NOT_STATEMENTS = ["undo", "redo", "edit", "delete"];   // changes that log no statement
  const onItsWay = [];        // statements sent and not answered yet, in order
  let lastAfter = null;       // the taps' state after them, when last asked (tapState)
  let bridge = null;          // ... kept from the last one saved until the page reloads
  let changing = false;
  let queue = Promise.resolve();

  // ... and the same change again within a finger's double tap (DOUBLE_TAP ms) of one that
  // was saved, however soon that was answered (a server on this machine answers within
  // 20 ms); a change refused (stale, a rule) may be sent again at once
  const DOUBLE_TAP = 400;
  let lastChange = { line: null, at: 0 };
  let doubled = false;        // the change on its way was tapped again meanwhile
  const DOUBLED = " (a second tap within " + DOUBLE_TAP / 1000 + " s was taken for a double "
    + "tap and not done: tap again if it was meant)";

  // the version shown when the box's statement was typed (or tapped): the server tells a
  // statement another device logged meanwhile from a new one (not logged twice)
  let typedOn = null;
  let typed = "";             // the box before the last keystroke (or what setBox put there)

  // ``on``: the version the change was decided on (a line's Delete: the lines it showed);
  // ``id``: the change's own id (changeId): sent again, it is done once; ``sentOn``: the
  // version a change sent again with its id was first sent on (a server started again
  // since, which forgot the id, answers it as saved where the record gained it since)
  function post(line, fresh, on, id, sentOn) {
    const begun = on || (fresh || line.trim() !== box.value.trim() ? version : (typedOn || version));
    const body = { line: line, version: version, typed_on: begun, id: id || null };
    if (sentOn) body.sent_on = sentOn;
    return fetch("/do", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sleuth-Token": token },
      body: JSON.stringify(body),
    });
  }

  // Each change carries an id of its own; one whose answer never came (a reload cut it,
  // the connection went) keeps its id, in the tab's storage, until an answer for it comes:
  // logged again, it is sent with that id, and a server that saved it already answers so
  // (web/app.py Sent) instead of saving it a second time. Kept for UNANSWERED_MS at most,
  // with the version it was first sent on (``on``): a server started again since forgot the
  // id, and the record having gained the statement after that version tells it was saved.
  const norm = (t) => t.replace(/#.*/, "").trim().replace(/\s+/g, " ").toLowerCase();
  const idKey = (t) => t.trim().replace(/\s+/g, " ");    // its comment too
  const idsKey = tabKey + ":ids";
  const UNANSWERED_MS = 30 * 60 * 1000;
  const ownIds = new Set();   // the ids this page made (others: from before a reload)
  function unanswered() {
    let got = null;
    try { got = JSON.parse(localStorage.getItem(idsKey) || "null"); } catch (e) { got = null; }
    return got && typeof got === "object" ? got : {};
  }
  function storeIds(ids) {
    try {
      if (Object.keys(ids).length) localStorage.setItem(idsKey, JSON.stringify(ids));
      else localStorage.removeItem(idsKey);
    } catch (e) { /* private mode */ }
  }
  function changeId(line) {
    const ids = unanswered();
    const had = ids[idKey(line)];
    if (had && had.id && !had.away && Date.now() - (had.at || 0) < UNANSWERED_MS) return had.id;
    const id = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2)
      + Math.random().toString(36).slice(2);
    ownIds.add(id);
    for (const [k, v] of Object.entries(ids)) {
      if (!v || Date.now() - (v.at || 0) >= UNANSWERED_MS) delete ids[k];
    }
    ids[idKey(line)] = { id: id, at: Date.now(), on: version };
    storeIds(ids);
    return id;
  }
  // The box typed over since a change was sent without answer: the same text typed again
  // is a new statement (a new id), not that change sent again; its "Back in the box" (or
  // the page putting it back: sentBefore) makes it that change again (``away`` false).
  function awayIds(text, back) {
    const ids = unanswered();
    let changed = false;
    for (const [k, v] of Object.entries(ids)) {
      if (!v) continue;
      const away = back ? (k === idKey(text) ? false : v.away) : (v.away || k !== idKey(text));
      if (Boolean(v.away) !== Boolean(away)) { v.away = away; changed = true; }
    }
    if (changed) storeIds(ids);
  }
  // the version the change ``id`` of ``line`` was first sent on (null: not known)
  function firstOn(line, id) {
    const had = unanswered()[idKey(line)];
    return had && had.id === id && had.on ? had.on : null;
  }
  function answeredId(line, id) {
    const ids = unanswered();
    const had = ids[idKey(line)];
    if (had && had.id === id) { delete ids[idKey(line)]; storeIds(ids); }
  }
  // a change saved before, its answer lost: what the status says (``sent``: when it was
  // sent, where a reload or the connection's return asked about it: sentBefore)
  function doneBefore(status, id, sent) {
    const when = sent ? " " + sent : ownIds.has(id)
      ? " before (the answer to its first Log did not come)" : " before the page was reloaded";
    const m = /^logged (?:before [^:]*: )?(lines? \d+(?:-\d+)?: [\s\S]*)$/.exec(status || "");
    const h = /^held (line \d+: [\s\S]*)$/.exec(status || "");    // a held claim (sent_on)
    return m ? "logged" + when + ": " + m[1] : h ? "held" + when + ": " + h[1]
      : "done" + when + ": " + status;
  }

  // A server started again since the page was loaded has a new token: the page's own
  // address gives it (the page carries it), unless the address needs the old one (a
  // phone's: its token is in the URL), which then has to be opened anew.
  async function freshToken() {
    try {
      const r = await fetch(location.pathname + location.search, { cache: "no-store" });
      if (!r.ok) return null;
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      const m = doc.querySelector('meta[name="sleuth-token"]');
      return m && m.content && m.content !== token ? m.content : null;
    } catch (e) { return null; }
  }

  async function act(line, fresh, on) {
    const change = !READING.includes(line.trim().split(/\s+/)[0].toLowerCase());
    if (!change) return send(line, false, fresh);
    const now = Date.now();
    if (line === lastChange.line && (changing || now - lastChange.at < DOUBLE_TAP)) {
      // a double tap: said (after the first's answer, if it is on its way), so that a
      // second Undo meant as one is tapped again
      if (changing) doubled = true; else note(DOUBLED);
      return null;
    }
    lastChange = { line: line, at: now };
    // a statement on its way: the taps offer what follows it (afterData) until it is answered
    // ("force <statement>" forces that statement; "force" alone one the page does not know)
    const said = line.trim().replace(/^force\s+/i, "");
    const statement = !NOT_STATEMENTS.includes(said.split(/\s+/)[0].toLowerCase())
      && said.toLowerCase() !== "force";
    if (statement) { onItsWay.push(said); renderChoices(); }
    const sent = queue.then(() => send(line, true, fresh, on));
    queue = sent.catch(() => null);
    if (statement) {
      const done = (d) => {
        const i = onItsWay.indexOf(said);
        if (i >= 0) onItsWay.splice(i, 1);
        // saved, the last on its way: what followed it stays until the page has the
        // record with it (loadLive), so the old turn does not come back meanwhile
        bridge = !onItsWay.length && d && d.saved ? lastAfter : null;
        renderChoices();
      };
      sent.then(done, () => done(null));
    }
    return sent;
  }

  // A statement on its way is marked in the tab's storage until its answer comes: a page
  // reloaded meanwhile finds it, and tells whether the record has it (sentBefore).
  const sentKey = tabKey + ":sent";
  // (``version``: the one it was first sent on, a Log tapped again meanwhile or not)
  function markSent(line, id) {
    try {
      if (line === null) localStorage.removeItem(sentKey);
      else {
        localStorage.setItem(sentKey, JSON.stringify({ line: line,
          version: (id && firstOn(line, id)) || version, id: id }));
      }
    } catch (e) { /* private mode */ }
  }

  // The answer to the last change, kept a moment in the tab's storage: one that came while
  // the page was being reloaded (after the reload began: "beforeunload") was never read,
  // and the reloaded page says it (sentBefore)
  const answerKey = tabKey + ":answer", leftKey = tabKey + ":left";
  function keepAnswer(line, id, d) {
    try {
      localStorage.setItem(answerKey, JSON.stringify({ line: line, id: id, at: Date.now(),
        result: { saved: Boolean(d.saved), kind: d.kind, status: d.status } }));
    } catch (e) { /* private mode */ }
  }
  window.addEventListener("beforeunload", () => {
    try { localStorage.setItem(leftKey, String(Date.now())); } catch (e) { /* private mode */ }
  });

  let unsent = null;          // the last change sent that got no answer (send)
  let answerLost = 0;         // when a change got no answer: asked about at the next poll
  let onWay = null;           // the id of the change on its way now
  async function send(line, change, fresh, on) {
    if (change) changing = true;
    let saved = false;
    const prior = change ? unanswered()[idKey(line)] : null;
    const id = change ? changeId(line) : null;
    // sent again with its id: the version it was first sent on goes with it
    const sentOn = prior && prior.id === id ? firstOn(line, id) : null;
    if (change) onWay = id;
    if (change) markSent(line, id);
    unsent = null;
    setBusy(1);
    try {
      let r = await post(line, fresh, on, id, sentOn);
      // answered: no longer on its way (a request cut by a reload keeps its mark)
      if (change) markSent(null);
      if (r.status === 403) {
        const renewed = await freshToken();
        if (renewed) { token = renewed; r = await post(line, fresh, on, id, sentOn); }
        if (r.status === 403) {
          if (change) answeredId(line, id);
          say("Not saved: the server was started again with a new address. Open the address "
            + "'sleuth serve' printed now (or scan its QR code); your statement stays in the box.");
          cutStatus();
          readdressed();
          return null;
        }
      }
      if (change) answeredId(line, id);
      if (!r.ok) { say("refused by the server: " + r.status + " " + (await r.text())); return null; }
      const d = await r.json();
      if (d.repeat && d.saved) d.status = doneBefore(d.status, id);
      if (change) keepAnswer(line, id, d);
      saved = Boolean(d.saved);
      show(d, line);
      return d;
    } catch (e) {
      say("no answer from the server (is 'sleuth serve' still running?)");
      // maybe saved, maybe not: logged again, it is sent with the same id (changeId); the
      // server is asked about it as soon as it answers again (connection: answerLost)
      if (change) { unsent = line; answerLost = Date.now(); }
      return null;
    } finally {
      if (change) { changing = false; onWay = null; }
      if (change && doubled) { doubled = false; if (saved) note(DOUBLED); }
      if (change && !saved) lastChange = { line: null, at: 0 };
      setBusy(-1);
    }
  }

  // a note after the status, which stays what it says
  function note(text) {
    if (!statusEl.textContent.endsWith(text)) statusEl.textContent += text;
  }

  // the status of this page's last change saved, while the status still shows it
  let confirmed = null;
  function say(text) {
    statusEl.textContent = text;
    statusEl.classList.remove("refusal", "cut");
    if (moreEl) moreEl.hidden = true;
    entry.classList.remove("refusing");
    confirmed = null;
  }

  // a long status that is not a refusal shown whole (the server started again with a new
  // address): cut to the status' two lines with an ellipsis, "Show the whole refusal" beside
  // it, as a refusal once its statement left the box (dropRefusal), never scrolling inside
  function cutStatus() {
    statusEl.classList.remove("cut");
    const over = statusEl.scrollHeight > statusEl.clientHeight + 1;
    if (moreEl) moreEl.hidden = !over;
    statusEl.classList.toggle("cut", over);
  }

  const EMPTY_NOTE = " (the box is empty now: nothing more to log)";
  // Log with an empty box: nothing is sent. A confirmation still shown stays (a late second
  // tap on Log must not hide what the first one logged), with a note.
  function nothingToLog() {
    if (confirmed === null) { say("nothing to log: the Statement box is empty"); return; }
    const kept = confirmed;
    if (!statusEl.textContent.endsWith(EMPTY_NOTE)) statusEl.textContent = kept + EMPTY_NOTE;
    confirmed = kept;
  }

  // the stale refusal's words for a change sent on a version older than the page's own
  // last change (the page had not caught up with it): no other device is to blame
  const BLAME = "the record changed since this page showed it (another device, 'sleuth log' "
    + "or an editor saved it)";
  const OWN = "this page sent it on a version older than its own last change (no other "
    + "device changed the record)";
  function show(d, line) {
    const own = Boolean(d.stale && !d.same_line && d.version && d.version === ownSaved);
    if (own && d.status) d.status = d.status.replace(BLAME, OWN);
    answered = true;
    say(d.status);
    if (d.saved) confirmed = d.status;
    refusedLine = d.kind === "refused" ? (line || "") : null;
    refusedWhy = d.kind === "refused" ? d.status : null;
    refusedHead = null;
    refusedFixes = d.kind === "refused" ? (d.fixes || []) : [];
    // a refusal is read whole (what was refused, the rule): not cut to the status' two lines
    statusEl.classList.toggle("refusal", d.kind === "refused");
    fixesEl.replaceChildren();
    staleEl.replaceChildren();
    for (const f of d.fixes || []) {
      const b = button("Use: " + f, () => logLine(f));
      b.classList.add("fix");
      fixesEl.append(b);
    }
    if (d.kind === "refused") {
      // a long refusal on a short screen pushed the box and its one-tap correction below
      // the panel's fold: they are scrolled into sight (the refusal's start scrolls above)
      // ... but never the refusal's start under the panel's sticky bar (a phone): its
      // first words are what was refused and why. Where both do not fit, the panel grows
      // while the refusal is shown (app.css .entry.refusing); still too long, the start wins
      requestAnimationFrame(() => {
        const target = fixesEl.querySelector("button") || box;
        const into = () => { if (entry.contains(target)) target.scrollIntoView({ block: "nearest" }); };
        const bar = entry.querySelector(".entry-bar");
        const sticky = bar && getComputedStyle(bar).position === "sticky";
        const under = () => (sticky ? bar.getBoundingClientRect().bottom
          - statusEl.getBoundingClientRect().top : 0);
        into();
        if (under() > 0.5) { entry.classList.add("refusing"); into(); }
        if (under() > 0.5) entry.scrollTop -= under();
      });
    }
    if (d.conflict && d.conflict.length) {
      const ul = document.createElement("ul");
      ul.className = "conflict";
      for (const c of d.conflict) {
        const li = document.createElement("li");
        li.textContent = "line " + c.line + ": " + c.text;
        ul.append(li);
      }
      fixesEl.append(ul);
    }
    if (d.stale) {
      // the record moved on under the page: it shows the record as it is now, then says so
      // (a statement stays in the box: logLine)
      whatif = null;
      const kept = !/^(undo|redo|delete)\b/i.test((line || "").trim());
      const edit = /^edit\b/i.test((line || "").trim());
      loadLive().then(() => {
        // an edit refused for a line moved: decided again on the lines shown now
        if (edit) typedOn = version;
        const p = document.createElement("p");
        p.setAttribute("role", "alert");
        if (d.same_line) {
          // the same statement, logged on another device first: not to be logged twice
          p.textContent = "Not saved: another device logged this same statement first (line "
            + d.same_line + "). The page shows the record as it is now. Log it again only "
            + "if it happened twice.";
          staleEl.replaceChildren(p, button("Log it again: " + line, () => logLine(line, true)));
          return;
        }
        p.textContent = (own ? "Not saved: the page sent it before it had caught up with "
          + "its own last change (no other device changed the record)."
          : "Not saved: the record changed on another device (or in an editor).")
          + " The page has refreshed to show it as it is now"
          + (edit ? "; your edit is still in the box: check its line number and log it again."
            : kept ? "; your statement is still in the box: check it and log it again." : ".");
        staleEl.replaceChildren(p);
      });
    }
    if (d.why) { whyEl.textContent = d.why; whyEl.hidden = false; openEntry(true); }
    else if (d.kind !== "refused") { whyEl.hidden = true; }
    if (d.saved && d.version) {                           // our own change: the base now
      if (typedOn === version) typedOn = d.version;       // (not another device's)
      version = d.version;
      ownSaved = d.version;
      epoch += 1;
    }
    if (d.kind === "whatif") { whatif = d.whatif; loadLive(); }
    else if (d.stale) { /* loaded above */ }
    else if (d.saved || (d.version && d.version !== version)) { whatif = null; loadLive(); }
  }

  async function logLine(line, fresh) {
    if (!line.trim()) { nothingToLog(); return; }
    const before = box.value;               // what the box held when the line was sent
    const d = await act(line, fresh);
    // what was typed or tapped into the box meanwhile (the next statement, while this one
    // was checked) stays there, whatever the answer
    const moved = box.value !== before;
    if (!d && unsent === line && !/^(undo|redo|delete|force)\b/i.test(line.trim())) {
      // no answer (no connection): the statement is not lost when the box moves on
      const why = "no answer from the server: not saved, or its answer was lost; logged "
        + "again, it is not saved twice";
      if (moved && box.value.trim() !== line.trim()) keep(line, why, "Not sent: ");
      else { refusedLine = line; refusedWhy = why; refusedHead = "Not sent: "; }
      return;
    }
    // saved: the box is emptied
    if (d && d.saved) { if (!moved) setBox(""); dropLogged(line.replace(/^force\s+/i, "")); }
    // in the record already (another device logged it first): said, the box emptied
    else if (d && d.stale && d.same_line) { if (!moved) setBox(""); }
    else if (d && d.kind === "refused" && moved) {
      // not saved, and no longer in the box: kept below it, to be put back
      keep(line, d.status, undefined, d.fixes);
    }
    // a statement not saved stays in the box (a fix tapped: the fix, as the status says)
    else if (d && d.stale && box.value.trim() !== line.trim()) { setBox(line); }
  }

  // A statement refused after the box had moved on to the next one (typed while it was
  // checked): its refusal would be lost under the next one's answer, and the statement
  // with it. It is kept under the box, with its refusal, until put back or dropped.
  // Kept in the tab's storage too (keptKey), so that a reload does not lose them.
  // Its text is a note, not an alert (said once, in the announcements, as it is kept: not
  // again at each reload), cut to two lines on a phone (app.css) beside its two buttons,
  // so that the next statement's choices stay in sight; the buttons' names hold the
  // statement, their faces the action alone. ``fixes``: the refusal's corrections; the
  // statement or one of them logged since, the kept one goes (dropLogged).
  // Named by its text (the note's accessible name: `Not saved: <statement> (<refusal>)`).
  // Cut, it opens whole (`Show the whole note: <statement>`). ``logged``: the line the record
  // gained this same statement at from another device or `sleuth log` (keptElsewhere):
  // said on the note. More than one kept: the newest shows, the others fold (keptFold).
  function keep(line, why, head, fixes, quiet, logged) {
    if (!line.trim() || /^(undo|redo|delete|force)\b/i.test(line.trim())) return;
    // kept once (a reload asks again about one kept already)
    if ([...keptEl.querySelectorAll(".kept-item")].some((el) => el.dataset.line === line)) return;
    const p = document.createElement("p");
    p.setAttribute("role", "note");
    p.className = "kept-why";
    p.textContent = (head || "Not saved: ") + line + " (" + why + ")";
    p.setAttribute("aria-label", p.textContent);
    const gone = () => { item.remove(); storeKept(); keptFold(); };
    const back = button("Back in the box", () => {
      gone();
      // what the box holds meanwhile is not lost either: kept in its place
      if (box.value.trim() && box.value.trim() !== line.trim()) {
        keep(box.value, "put aside for the statement put back", "Not logged yet: ");
      }
      setBox(line);
      awayIds(line, true);      // that change again: sent with its id
      box.focus();
    });
    back.setAttribute("aria-label", "Back in the box: " + line);
    const drop = button("Drop it", gone);
    drop.setAttribute("aria-label", "Drop it: " + line);
    const whole = button("More", () => {
      const open = !item.classList.contains("whole");
      item.classList.toggle("whole", open);
      whole.setAttribute("aria-expanded", open ? "true" : "false");
      whole.textContent = open ? "Less" : "More";
    });
    whole.className = "kept-whole";
    whole.setAttribute("aria-label", "Show the whole note: " + line);
    whole.setAttribute("aria-expanded", "false");
    const item = document.createElement("div");
    item.className = "kept-item";
    item.dataset.line = line;
    item.dataset.why = why;
    item.dataset.head = head || "";
    item.dataset.fixes = JSON.stringify(fixes || []);
    item.append(p, whole, back, drop);
    keptEl.insertBefore(item, keptMore);
    if (logged) keptLogged(item, logged);
    storeKept();
    keptFold();
    if (!quiet && announceEl) {
      const a = document.createElement("p");
      a.textContent = p.textContent.replace(/\s*\([\s\S]*$/, "") + ": kept under the box.";
      announceEl.append(a);
      while (announceEl.childElementCount > 5) announceEl.firstElementChild.remove();
    }
  }
  // ``line`` logged: a statement kept under the box that is that statement, or that it
  // corrects (one of its refusal's corrections), goes: logged, it is not to be put back
  function dropLogged(line) {
    let dropped = false;
    for (const el of keptEl.querySelectorAll(".kept-item")) {
      let fixes = [];
      try { fixes = JSON.parse(el.dataset.fixes || "[]"); } catch (e) { fixes = []; }
      if (norm(el.dataset.line) === norm(line) || fixes.some((f) => norm(f) === norm(line))) {
        el.remove();
        dropped = true;
      }
    }
    if (dropped) storeKept();
  }
  // The record gained a kept statement at line ``n`` (another device, `sleuth log`): the
  // note says so, not "Not saved" (Back in the box would log it a second time).
  function keptLogged(item, n) {
    item.dataset.logged = String(n);
    const p = item.querySelector("p");
    p.textContent = "Now line " + n + " (logged elsewhere): " + item.dataset.line
      + " (not saved from this page: " + item.dataset.why + ")";
    p.setAttribute("aria-label", p.textContent);
    item.classList.add("logged");
  }
  // the lines another device (or `sleuth log`) added between the live parts ``old`` and
  // ``fresh``: a kept statement among them is marked logged (keptLogged)
  function keptElsewhere(old, fresh) {
    if (!keptEl.querySelector(".kept-item") || old.dataset.version === fresh.dataset.version
        || fresh.dataset.version === ownSaved || old.classList.contains("hypothetical")
        || fresh.classList.contains("hypothetical")) return;
    const textsOf = (m) => [...m.querySelectorAll("li[data-line] button.edit")].map((b) =>
      ({ line: b.dataset.line, text: b.dataset.text || "" }));
    // the record holds the statement more often than it did (lines that only moved, a
    // line deleted above them, are not taken for added ones): its last such line
    let marked = false;
    for (const el of keptEl.querySelectorAll(".kept-item:not(.logged)")) {
      const same = (l) => norm(l.text) === norm(el.dataset.line);
      const now = textsOf(fresh).filter(same);
      if (now.length > textsOf(old).filter(same).length) {
        keptLogged(el, Math.max(...now.map((l) => Number(l.line))));
        marked = true;
      }
    }
    if (marked) storeKept();
  }
  // more than one kept: the newest shows (one row on a phone), the others fold under
  // "N more kept" (aria-expanded), so that the next statement's choices stay in sight; a
  // cut note offers "More" (its whole text) only where it is cut
  const keptMore = button("", () => {
    const open = !keptEl.classList.contains("all");
    keptEl.classList.toggle("all", open);
    keptMore.setAttribute("aria-expanded", open ? "true" : "false");
    keptFold();
  });
  keptMore.className = "kept-more small";
  keptMore.setAttribute("aria-expanded", "false");
  keptMore.hidden = true;
  keptEl.append(keptMore);
  function keptFold() {
    const items = keptEl.querySelectorAll(".kept-item");
    const more = items.length - 1;
    keptMore.hidden = more < 1;
    if (more < 1) keptEl.classList.remove("all");
    const open = keptEl.classList.contains("all");
    keptMore.setAttribute("aria-expanded", open ? "true" : "false");
    keptMore.textContent = open ? "Fold the older kept" : more + " more kept";
    requestAnimationFrame(() => {
      for (const el of items) {
        const p = el.querySelector("p");
        const b = el.querySelector(".kept-whole");
        if (!p || !b || el.classList.contains("whole")) continue;
        b.hidden = p.scrollHeight <= p.clientHeight + 1 && p.scrollWidth <= p.clientWidth + 1;
      }
    });
  }
  const keptKey = tabKey + ":kept";
  function storeKept() {
    const items = [...keptEl.querySelectorAll(".kept-item")].map((el) =>
      ({ line: el.dataset.line, why: el.dataset.why, head: el.dataset.head,
        fixes: JSON.parse(el.dataset.fixes || "[]"), logged: el.dataset.logged || "" }));
    try {
      if (items.length) localStorage.setItem(keptKey, JSON.stringify(items));
      else localStorage.removeItem(keptKey);
    } catch (e) { /* private mode */ }
  }

  // The live part: first what needs no analysis (the lines, the turn: at once), then the
  // sheet (the server answers with it at once when it has it already).
  async function loadLive(full) {
    if (loading) { reloadAgain = reloadAgain === "full" || full ? "full" : "quick"; return loading; }
    setBusy(1);
    // a slow analysis: what it has established so far (the certainties) meanwhile
    const watch = full ? setInterval(showPartial, 500) : null;
    const asked = epoch, askedWhatif = whatif;
    loading = (async () => {
      try {
        const q = new URLSearchParams();
        if (whatif) q.set("whatif", whatif);
        if (!full && !whatif) q.set("quick", "1");
        const url = "/live" + (q.toString() ? "?" + q.toString() : "");
        const r = await get(url);
        if (!r.ok) return;
        const html = await r.text();
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("live");
        const old = document.getElementById("live");
        if (fresh && epoch !== asked && fresh.dataset.version !== version) {
          // asked for before the page's own last save: maybe an older version (never put
          // back); asked for again
          reloadAgain = reloadAgain === "full" || full ? "full" : "quick";
          return;
        }
        if (fresh && old) {
          announce(old, fresh);
          keptElsewhere(old, fresh);
          const openAdvice = old.querySelector("details.advice[open]");
          old.replaceWith(document.adoptNode(fresh));
          if (openAdvice) { const d = document.querySelector("#live details.advice"); if (d) { d.open = true; } }
          bindLive(askedWhatif);
        }
      } catch (e) {
        /* the poll says when the server is back */
      } finally {
        if (watch) clearInterval(watch);
        loading = null;
        setBusy(-1);
        if (reloadAgain) { const f = reloadAgain === "full"; reloadAgain = false; loadLive(f); }
      }
    })();
    return loading;
  }

  // What changed on the table, said in the polite log "Announcements" (page.html) for a
  // screen reader: whose turn it is after each change (this page's or another device's),
  // and the lines another device added (or that it changed the record) -- not the whole
  // sheet again, which a live region on the live part would read out.
  const announceEl = document.getElementById("announce");
  function turnText(m) {
    const p = m.querySelector("p.turn");
    if (!p || !p.querySelector("strong")) return "";
    const c = p.cloneNode(true);
    for (const v of c.querySelectorAll(".viewas")) v.remove();
    return c.textContent.replace(/\s+/g, " ").trim();
  }
  function linesOf(m) {
    return [...m.querySelectorAll("li[data-line]")].map((li) => {
      const t = li.querySelector(".txt");
      return { line: li.dataset.line, text: t ? t.textContent.trim() : "" };
    });
  }
  function announce(old, fresh) {
    if (!announceEl || old.dataset.version === fresh.dataset.version
        || old.classList.contains("hypothetical") || fresh.classList.contains("hypothetical")) return;
    const said = [];
    if (fresh.dataset.version !== ownSaved) {
      const had = new Set(linesOf(old).map((l) => l.line + "\n" + l.text));
      const added = linesOf(fresh).filter((l) => !had.has(l.line + "\n" + l.text)).reverse();
      if (added.length === 1) said.push("Another device logged line " + added[0].line + ": " + added[0].text + ".");
      else if (added.length > 1) {
        said.push("Another device logged lines " + added[0].line + " to "
          + added[added.length - 1].line + "; the last: " + added[added.length - 1].text + ".");
      } else said.push("The record was changed on another device.");
    }
    const turn = turnText(fresh);
    if (turn && turn !== turnText(old)) said.push(turn + ".");
    if (!said.length) return;
    const p = document.createElement("p");
    p.textContent = said.join(" ");
    announceEl.append(p);
    while (announceEl.childElementCount > 5) announceEl.firstElementChild.remove();
  }

  async function showPartial() {
    try {
      const r = await get("/partial");
      const d = await r.json();
      const p = document.querySelector("#live p.pending");
      const shown = document.querySelector("#live p.certain-so-far");   // stage 1's line
      if (document.querySelector("#live table.provisional")) {
        /* stage 1's sheet already shows the certain cards in place */
      } else if (shown && d.certain && d.version === version) {
        shown.textContent = "Certain so far: " + d.certain;
      } else if (p && d.certain && d.version === version) {
        p.textContent = "Working... (the probabilities). Certain so far: " + d.certain;
      }
    } catch (e) { /* the sheet follows anyway */ }
  }

  // The connection, as the poll finds it: lost, said at once and for as long as it lasts
  // (nothing can be logged meanwhile: a statement stays in the box); back, said with what
  // to do about a statement still in the box.  A page opened from the browser's copy (the
  // server down at a reload) is said to be that copy.
  const offlineEl = document.getElementById("offline");
  let reached = false;        // the server has answered this page's poll since it loaded
  let lost = false;
  let answered = false;       // an action was answered since the connection was lost
  let pollAsked = 0;          // when the poll last answered was asked
  const AGAIN = "connected to the server again";
  // A server that answers but refuses the page's token (403) was started again with a new
  // one: a page whose address carries the old token (a phone's, off this machine) can log
  // nothing more and has to be opened anew from the address printed now. Said at once, in
  // the alert, for as long as the page is open (instead of "connected to the server again").
  let addressGone = false;
  const NEW_ADDRESS = "'sleuth serve' was started again with a new address: this page can "
    + "no longer log. Open the address it printed now (or scan its QR code); what is in the "
    + "box stays in this browser.";
  function readdressed() {
    addressGone = true;
    lost = false;
    offlineEl.textContent = NEW_ADDRESS;
    offlineEl.hidden = false;
  }
  function connection(up) {
    if (up && addressGone) {
      if (lost || offlineEl.hidden) readdressed();
      reached = true;
      return;
    }
    if (up && !lost && answerLost && pollAsked > answerLost && !changing && !checkingSent) {
      // a change's answer lost, the connection not (a poll asked since answered): the
      // server is asked what became of it now, as when the connection comes back
      answerLost = 0;
      sentBefore(ANSWER_LOST);
    }
    if (up && lost) {
      lost = false;
      answerLost = 0;
      offlineEl.hidden = true;
      // a change sent when the connection went, its answer never come: the server is
      // asked what became of it (sentBefore: saved, refused, never got), which the status
      // says; else the status says the last action's answer, if one came meanwhile (not
      // written over)
      let mark = null;
      try { mark = JSON.parse(localStorage.getItem(sentKey) || "null"); } catch (e) { mark = null; }
      if (mark && mark.line && !changing) sentBefore(RECONNECTED);
      else {
        if (!answered) {
          say(AGAIN + (box.value.trim()
            ? ": the statement in the box is not saved yet; log it" : ""));
        }
        if (!changing) settleIds();
      }
      loadLive();
    } else if (!up && !lost) {
      lost = true;
      answered = false;
      offlineEl.textContent = "No connection to 'sleuth serve': nothing can be logged until "
        + "it answers again (what you type stays in the box)."
        + (reached ? "" : " This page is the browser's copy of the last one loaded: the "
          + "record may have lines it does not show.");
      offlineEl.hidden = false;
    }
    if (up) reached = true;
  }

  async function poll() {
    try {
      const asked = epoch;
      const at = Date.now();
      const r = await get("/version");
      pollAsked = at;
      if (r.status === 403 && !addressGone) {
        // a new token: the page's own address gives it (this machine's), else it is gone
        const renewed = await freshToken();
        if (renewed) token = renewed;
        else readdressed();
      }
      connection(r.ok || r.status === 403);
      if (r.ok && asked === epoch) {      // asked before the page's own save: maybe older
        const d = await r.json();
        const live = document.getElementById("live");   // a statement held on another device
        const held = live ? live.dataset.held || "" : "";
        if (d.version && (d.version !== version || (d.held || "") !== held) && !loading) loadLive();
      }
    } catch (e) { connection(false); /* server gone: keep polling */ }
    setTimeout(poll, 700);
  }

  // ----- the live part ----------------------------------------------------------------
  // ``asked``: the what if the live part was asked for (null: the record's own sheet)
  function bindLive(asked) {
    const live = document.getElementById("live");
    version = live.dataset.version;
    if (asked && asked === whatif && !live.classList.contains("hypothetical")) {
      // the record changed under the what if and no longer allows it: the page shows the
      // record's own sheet, and the status says why (not the hypothetical sheet gone)
      const err = live.querySelector(".whatif-error");
      whatif = null;
      say("the what if ended: the record changed and '" + asked + "' "
        + (err ? "is refused on it now: " + err.textContent.replace(/^What if refused:\s*/, "")
          : "no longer applies") + "; the sheet is the record's as it is");
    }
    document.getElementById("form-version").value = version;
    live.setAttribute("aria-busy", busy > 0 ? "true" : "false");
    const data = live.querySelector("script.entry-data");
    E = data ? JSON.parse(data.textContent) : null;
    bridge = null;              // the page's own state again
    fitCells();
    discloseAll(live);
    for (const b of live.querySelectorAll("button.edit")) {
      b.addEventListener("click", () => {
        // a statement being typed (or another line's edit, changed) is not lost under the
        // edit: kept below the box
        const m = box.value.trim().match(/^edit\s+(\d+)\s+(.*)$/is);
        const other = m && live.querySelector('button.edit[data-line="' + m[1] + '"]');
        const unchanged = m && other && m[2].trim() === other.dataset.text.trim();
        if (!unchanged && box.value.trim() !== ("edit " + b.dataset.line + " " + b.dataset.text).trim()) {
          keep(box.value, "put aside to edit line " + b.dataset.line, "Not logged yet: ");
        }
        setBox("edit " + b.dataset.line + " " + b.dataset.text);
        // the line number is the lines' shown now: the server refuses the edit if line N
        // or a line above it has changed since (another device deleted a line above it)
        typedOn = live.dataset.version;
        openEntry(true);
        box.focus();
        window.scrollTo({ top: 0 });
      });
    }
    for (const f of live.querySelectorAll("form.delete-form")) {
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        act(f.querySelector('input[name="line"]').value, false,
          f.querySelector('input[name="version"]').value);
      });
    }
    const leave = live.querySelector("button.leave-whatif");
    if (leave) leave.addEventListener("click", () => {
      whatif = null;
      say("left the what if: the sheet is the record's as it is");
      loadLive();
    });
    const adv = live.querySelector("details.advice");
    if (adv) {
      adv.addEventListener("toggle", async () => {
        if (!adv.open) return;
        const pre = adv.querySelector(".advice-text");
        pre.textContent = "Working...";
        try {
          const r = await get("/advice");
          const d = await r.json();
          pre.textContent = [d.advice, d.exposure].filter(Boolean).join("\n\n");
        } catch (e) { pre.textContent = "no answer from the server"; }
      });
    }
    renderChoices();
    if (live.dataset.pending === "yes") { loadLive(true); }
    else if (live.dataset.advised === "yes") { loadHint(version); }
  }

  // The advisor's line comes apart: it can take long, and the sheet never waits for it.
  async function loadHint(v) {
    try {
      const r = await get("/hint");
      if (!r.ok) return;
      const d = await r.json();
      const p = document.querySelector("#live p.hint");
      if (p && d.hint && d.version === version && v === version) {
        p.textContent = "Hint: " + d.hint;
        p.hidden = false;
      }
    } catch (e) { /* no hint: nothing to show */ }
  }

  // ----- the Statement box ------------------------------------------------------------
  // The box emptied (its ✕, a statement logged): a refusal's corrections and conflict go
  // (a "Use: ..." left there would log a statement given up); its text is cut to the
  // status' two lines, with a button that shows it whole.
  let refusedLine = null;     // the statement the corrections shown are for
  let refusedWhy = null;      // ... and its refusal
  let refusedHead = null;     // ... and how a statement kept from it is headed (keep)
  let refusedFixes = [];      // ... and its corrections
  let moreEl = null;          // "Show the whole refusal" (dropRefusal)
  moreEl = document.getElementById("status-more");
  moreEl.addEventListener("click", () => {
    statusEl.classList.remove("cut");
    statusEl.classList.add("refusal");
    moreEl.hidden = true;
    statusEl.focus();
  });
  function dropRefusal() {
    if (refusedLine !== null && box.value.trim() === refusedLine.trim()) return;
    if (!fixesEl.childElementCount && !staleEl.childElementCount
        && !statusEl.classList.contains("refusal")) return;
    fixesEl.replaceChildren();
    staleEl.replaceChildren();
    // the refusal goes back to the status' two lines, out of the way of the next
    // statement's choices; cut there, "Show the whole refusal" shows it whole again
    statusEl.classList.remove("refusal");
    entry.classList.remove("refusing");
    moreEl.hidden = statusEl.scrollHeight <= statusEl.clientHeight + 1;
    // cut at a line's end, with an ellipsis (app.css .status.cut), never through a line
    statusEl.classList.toggle("cut", !moreEl.hidden);
    refusedLine = null;
  }

  function setBox(text) {
    const before = box.value;
    box.value = text;
    typed = text;               // the input handler's "before" is this text now
    if (!before.trim() && text.trim()) typedOn = version;   // a statement begun
    dropRefusal();
    fitBox();
    box.scrollTop = box.scrollHeight;      // a long statement (a trick on one line): its end in sight
    keepDraft(text, before);
    renderChoices();
  }

  // The box grows with its statement up to BOX_LINES lines (a line half scrolled out of a
  // two-line box hid a long ask of all's start), then scrolls.
  const BOX_LINES = 4;
  // The placeholder (an example statement of the record's, web/app.py example) in the two
  // lines an empty box shows: shorter forms of it where it would wrap onto more (a long
  // Clue suggestion, long names, a narrow phone), the example alone, then words alone.
  const placeholders = (() => {
    const full = box.getAttribute("placeholder") || "";
    const ex = full.replace(/^tap below, or type: /, "");
    return [full, ex, "tap below, or type a statement"].filter((t, i, a) => t && a.indexOf(t) === i);
  })();
  function fitPlaceholder() {
    if (box.value) return;
    const st = getComputedStyle(box);
    const line = parseFloat(st.lineHeight) || 1.25 * parseFloat(st.fontSize);
    const room = 2 * line + parseFloat(st.paddingTop) + parseFloat(st.paddingBottom) + 1;
    const height = box.style.height;
    box.style.height = "0px";                       // scrollHeight: the text's own height
    for (const t of placeholders) {
      box.setAttribute("placeholder", t);
      if (box.scrollHeight <= room) break;
    }
    box.style.height = height;
  }

  function fitBox() {
    fitPlaceholder();
    box.style.height = "";
    const st = getComputedStyle(box);
    const line = parseFloat(st.lineHeight) || 1.25 * parseFloat(st.fontSize);
    // border-box (app.css): the height holds the padding and the border, scrollHeight
    // the padding
    const border = parseFloat(st.borderTopWidth) + parseFloat(st.borderBottomWidth);
    const most = BOX_LINES * line + parseFloat(st.paddingTop) + parseFloat(st.paddingBottom)
      + border;
    // an empty box's scrollHeight is its placeholder's: two lines of it in sight (its
    // example statement wraps at 360 px, its second line was cut), not more (a long one,
    // of long names, would push the choices down for a hint)
    const room = box.value ? most : Math.min(most, 2 * line + parseFloat(st.paddingTop)
      + parseFloat(st.paddingBottom) + border);
    if (box.scrollHeight + border > box.offsetHeight + 1) {
      box.style.height = Math.min(box.scrollHeight + border, room) + "px";
    }
  }

  typed = box.value;                        // the box before the last keystroke
  // A refused statement still in the box, replaced whole by another (selected and typed
  // over, pasted over): not lost, kept under the box with its refusal as one refused
  // after the box moved on is (keep). Changed in place (a typo mended) it is not kept.
  let wholeSelected = false;
  box.addEventListener("beforeinput", () => {
    wholeSelected = box.value.length > 0 && box.selectionStart === 0
      && box.selectionEnd === box.value.length;
  });
  box.addEventListener("input", () => {
    if (wholeSelected && refusedLine !== null && refusedLine.trim()
        && typed.trim() === refusedLine.trim() && box.value.trim()
        && box.value.trim() !== refusedLine.trim()) {
      keep(refusedLine, refusedWhy || "refused", refusedHead || undefined, refusedFixes);
    }
    wholeSelected = false;
    awayIds(box.value, false);
    if (!typed.trim() && box.value.trim()) typedOn = version;   // a statement begun
    keepDraft(box.value, typed);
    typed = box.value;
    dropRefusal();
    fitBox();
    renderChoices();
  });
  box.addEventListener("keydown", (ev) => {      // Enter logs (the box wraps, never breaks a line)
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit(document.getElementById("log"));
    }
  });
  document.getElementById("clear").addEventListener("click", () => { setBox(""); box.focus(); });

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const cmd = ev.submitter ? ev.submitter.value : "log";
    const text = box.value.trim();
    if (cmd === "undo" || cmd === "redo") { act(cmd); return; }
    if (cmd === "why") { act("why " + (lastCard(text) || text)); return; }
    if (cmd === "whatif") { act("whatif " + text.replace(/^whatif\s+/i, "")); return; }
    logLine(text);
  });

  function lastCard(text) {
    if (!E) return null;
    const words = text.split(/[\s,:]+/).filter(Boolean);
    for (let i = words.length - 1; i >= 0; i--) {
      if (E.cards.includes(words[i].toUpperCase()) || E.cards.includes(words[i])) return words[i];
    }
    return null;
  }

  // ----- tap entry --------------------------------------------------------------------
  function button(label, onclick, pressed) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (pressed !== undefined) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", onclick);
    return b;
  }

  function group(title, extraClass) {
    const g = document.createElement("div");
    g.className = "choice-group" + (extraClass ? " " + extraClass : "");
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", title);
    const h = document.createElement("span");
    h.className = "group-title";
    h.setAttribute("aria-hidden", "true");
    h.textContent = title;
    const chips = document.createElement("div");       // the choices, beside the title
    chips.className = "chips";
    g.append(h, chips);
    choicesEl.append(g);
    return chips;
  }

  function spec(keyword) {
    if (!E) return null;
    const k = keyword.toLowerCase().replace(/:$/, "");
    return E.follows.find((f) => f[0].toLowerCase() === k) || null;
  }

  function expand(choices, exclude) {
    const out = [];
    for (const c of choices) {
      const pool = c === NAMES ? E.names : c === CARDS ? E.cards : c === RANGES ? E.ranges : c === WORDS ? E.words : [c];
      for (const w of pool) if (w !== exclude && !out.includes(w)) out.push(w);
    }
    return out;
  }

  // A word as the vocabulary spells it: a name in any case where only one player's name
  // is that word without case (record-format.md), a card, range or keyword in any case;
  // else the word as written. Keys compare as solver.records.name_key does (caseless, NFD).
  const fold = (w) => w.normalize("NFD").toUpperCase().toLowerCase().normalize("NFD");
  // the card forms the record accepts besides the canonical one: T for 10, the suits'
  // symbols, 5x for 5*, joker for Jk (record-format.md, lexical rules)
  const SUITS = { "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C" };
  const cardForm = (w) => w.replace(/\uFE0F/g, "").replace(/[\u2660\u2665\u2666\u2663]/g, (c) => SUITS[c])
    .replace(/(^|-)t(?=[shdc](-|$))/gi, "$110").replace(/^(10|[2-9ajqk])x$/i, "$1*")
    .replace(/^joker$/i, "Jk");
  function canon(w) {
    if (E.names.includes(w)) return w;
    const k = fold(w);
    const names = E.names.filter((n) => fold(n) === k);
    if (names.length) return names.length === 1 ? names[0] : w;   // two: written exactly
    const c = fold(cardForm(w));
    for (const pool of [E.cards, E.ranges]) {
      const hit = pool.find((x) => fold(x) === c);
      if (hit !== undefined) return hit;
    }
    for (const pool of [E.verbs, E.words, E.lead]) {
      const hit = pool.find((x) => fold(x) === k);
      if (hit !== undefined) return hit;
    }
    return w;
  }

  // The statement in the box, read as: [prefix] actor verb slots... [: answer], its words
  // as the vocabulary spells them (so that a tap rewrites what was typed, never drops it)
  function parse(text) {
    const m = text.match(/^\s*((?:edit\s+\d+|whatif|force)\s+)?(.*)$/is);
    const prefix = m[1] || "";
    // the statement before its comment (put keeps the comment)
    const stmt = m[2].indexOf("#") >= 0 ? m[2].slice(0, m[2].indexOf("#")) : m[2];
    const body = stmt.replace(/[^\s,:]+/g, canon);
    const colon = body.indexOf(":");
    const head = colon >= 0 ? body.slice(0, colon) : body;
    const answer = colon >= 0 ? body.slice(colon + 1).trim() : null;
    const words = head.split(/\s+/).filter(Boolean);
    let actor = null, verb = null, rest = [];
    if (words.length && E.names.includes(words[0])) {
      actor = words[0];
      verb = words[1] || null;
      rest = words.slice(2);
    } else if (words.length) {
      verb = words[0];
      rest = words.slice(1);
    }
    return { prefix, body, head: head.trim(), answer, words, actor, verb, rest,
             trailing: /\s$/.test(body) };
  }

  function compose(p, head, answer) {
    return p.prefix + head + (answer === null ? "" : ": " + answer);
  }

  // Fill the slots that allow one literal word only ("passes turn to", "has N cards"), and
  // a word or its plural by the number before it (Hand's "calls one card", "two cards").
  function autofill(text) {
    for (let i = 0; i < 4; i++) {
      const p = parse(text);
      const s = p.verb ? spec(p.verb) : null;
      if (!s || p.answer !== null) return text;
      const slots = s[1];
      const n = p.rest.length;
      if (n >= slots.length) return text;
      const slot = slots[n];
      const plural = slot.length === 2 && slot[1] === slot[0] + "s" && n > 0;
      if (slot.length === 1 && !slot[0].startsWith("<") && (n > 0 || slots.length > 1)) {
        text = compose(p, p.head + " " + slot[0], null);
      } else if (plural) {
        const one = /^(one|1)$/i.test(p.rest[n - 1]);
        text = compose(p, p.head + " " + slot[one ? 0 : 1], null);
      } else {
        return text;
      }
    }
    return text;
  }

  // A tap rewrites the statement and keeps its comment ("# Ben looked nervous": after the
  // first #, as the record reads it), with the caret before it (what is typed next is the
  // statement's, not the comment's).
  const commentOf = (text) => (text.indexOf("#") >= 0 ? text.slice(text.indexOf("#")) : "");
  function put(text) {
    const comment = commentOf(text) || commentOf(box.value);
    let stmt = autofill(text.indexOf("#") >= 0 ? text.slice(0, text.indexOf("#")).trimEnd() : text);
    if (comment) {
      const at = stmt.trimEnd().length;
      stmt = stmt.trimEnd() + "  " + comment;
      setBox(stmt);
      box.setSelectionRange(at, at);
    } else {
      setBox(stmt);
    }
    entry.scrollTop = 0;                 // the next step's choices from the top
  }

  // The choices are drawn anew at every step. A keyboard's focus on the choice just
  // taken would fall to the page's start with it: it goes to the same choice drawn again
  // (same group, same name), else the next step's first choice, else Log.
  function renderChoices() {
    const was = choicesEl.contains(document.activeElement) ? document.activeElement : null;
    const where = (b) => [b.closest("[role=group]").getAttribute("aria-label"), b.textContent];
    const key = was ? where(was).join("\n") : null;
    drawChoices();
    if (!was || choicesEl.contains(document.activeElement)) return;
    const all = [...choicesEl.querySelectorAll("button")];
    const next = all.find((b) => where(b).join("\n") === key) || all[0]
      || document.getElementById("log");
    next.focus({ preventScroll: true });
  }

  function drawChoices() {
    choicesEl.replaceChildren();
    if (!E) return;
    const p = parse(box.value);
    if (!p.words.length) { firstChoices(); return; }
    if (p.actor && !p.verb) { verbChoices(p, p.actor); return; }
    if (p.head.endsWith(":") || (p.actor && p.verb === ":")) return;
    if (whose(p.verb || "") && !p.rest.length && p.answer === null) {
      choiceList("Whose", E.names, (w) => put(p.head + " " + w + ":"), "");
      return;
    }
    if (E.game === "clue" && p.verb === "sees" && E.groups.length === 3) {
      clueSees(p);
      return;
    }
    if (E.game === "clue" && (p.verb === "suggests" || p.verb === "accuses")
        && E.groups.length === 3) {
      clueSuggestion(p);
      return;
    }
    if (leadChoices(p)) return;
    const s = spec(p.verb || "");
    if (!s) {
      if (p.words.length === 1 && p.words[0].endsWith(":")) return;   // "Ben: ?"
      return;
    }
    slotChoices(p, s);
  }

  // Clue: a suggestion (CL-5, CL-6): a suspect, a weapon, a room, then who shows (the
  // players between pass, in seat order from the suggester's left) or nobody, then the
  // card shown where the view saw it (its own: filled in when only one of the three is);
  // an accusation (CL-8): the three, then right or wrong.
  const KINDS = ["Suspect", "Weapon", "Room"];
  function clueSuggestion(p) {
    const n = p.rest.length;
    if (p.answer === null && n < 3) {
      // the suspect's group is named after the verb ("Suggests: suspect", "Accuses:
      // suspect"), whether the verb was tapped first or offered with the suspects
      const title = n === 0 ? p.verb[0].toUpperCase() + p.verb.slice(1) + ": "
        + KINDS[0].toLowerCase() : KINDS[n];
      choiceList(title, E.groups[n], (w) => put(p.head + " " + w), "");
      return;
    }
    if (n !== 3) return;
    const ans = p.answer || "";
    if (p.verb === "accuses") {
      const g = group("Answer");
      for (const w of (spec("accuses") || [null, null, []])[2]) {
        g.append(button(w, () => put(compose(p, p.head, w)), ans === w));
      }
      return;
    }
    const i = E.names.indexOf(p.actor);
    const order = E.names.slice(i + 1).concat(E.names.slice(0, i));
    if (E.refute_all) { clueRefuteAll(p, order); return; }
    const m = ans.match(/(\S+) shows(?: (\S+))?\s*$/);
    const shower = m ? m[1] : null;
    const g = group("Who shows");
    for (const who of order) {
      g.append(button(who, () => {
        const passes = order.slice(0, order.indexOf(who)).map((x) => x + " passes, ").join("");
        const mine = who === E.view
          ? p.rest.filter((c) => ((E.held || {})[E.view] || []).includes(c)) : [];
        put(compose(p, p.head, passes + who + " shows" + (mine.length === 1 ? " " + mine[0] : "")));
      }, who === shower));
    }
    for (const w of ["nobody", "?"]) g.append(button(w, () => put(compose(p, p.head, w)), ans === w));
    if (shower && E.view && (p.actor === E.view || shower === E.view)) {
      const cards = shower === E.view
        ? p.rest.filter((c) => ((E.held || {})[E.view] || []).includes(c)) : p.rest;
      choiceList("Card shown", cards, (w) => {
        put(compose(p, p.head, ans.replace(/ shows(?: \S+)?\s*$/, " shows " + w)));
      }, "", m && m[2] ? [m[2]] : []);
    }
  }

  // Clue under refute=all (CL-13): every other player answers, in seat order from the
  // suggester's left, each "passes" or "shows" (one group of buttons per player; the first
  // tap writes the whole answer, the players not tapped yet passing), and the card shown
  // where the view saw it (shown to the view, or the view's own: filled in when only one
  // of the three is). "?" when the answers were not seen.
  function clueRefuteAll(p, order) {
    const ans = p.answer || "";
    const said = new Map();
    for (const part of ans.split(",")) {
      const m = part.trim().match(/^(\S+) (passes|shows)(?: (\S+))?$/);
      if (m) said.set(m[1], { verb: m[2], card: m[3] || null });
    }
    const mine = p.rest.filter((c) => ((E.held || {})[E.view] || []).includes(c));
    const write = (who, verb, card) => {
      const parts = order.map((x) => {
        const a = x === who ? { verb, card } : said.get(x) || { verb: "passes", card: null };
        return x + " " + a.verb + (a.verb === "shows" && a.card ? " " + a.card : "");
      });
      put(compose(p, p.head, parts.join(", ")));
    };
    for (const who of order) {
      const now = said.get(who);
      const g = group(who, "counts");
      g.append(button("passes", () => write(who, "passes", null), !!now && now.verb === "passes"));
      g.append(button("shows", () => write(who, "shows", who === E.view && mine.length === 1
        ? mine[0] : null), !!now && now.verb === "shows"));
      if (now && now.verb === "shows" && E.view && (p.actor === E.view || who === E.view)) {
        for (const c of who === E.view ? mine : p.rest) {
          g.append(button(c, () => write(who, "shows", c), now.card === c));
        }
      }
    }
    const g = group("Or");
    g.append(button("?", () => put(compose(p, p.head, "?")), ans === "?"));
  }

  // Clue: what a player saw in the case file after a wrong accusation (CL-8, docs/clue.md):
  // "A sees case: s w r", the three by kind.
  function clueSees(p) {
    const head = p.rest.length ? p.head : p.head + " case";
    const got = (p.answer || "").split(/\s+/).filter(Boolean);
    if (got.length >= 3) return;
    choiceList("Case file: " + KINDS[got.length].toLowerCase(), E.groups[got.length],
      (w) => put(compose(p, head, got.concat([w]).join(" "))), "");
  }

  // With an empty box the actor is the player on turn; "Someone else acts" offers the
  // names instead (each name is then one button only, never an actor and a target at once).
  let pickActor = false;

  function firstChoices() {
    const N = tapState();
    const implied = N.turn;
    if (E.game === "twenty-two" && !pickActor) trickChoices(null);   // the next play's cards first
    // the player on turn's choices first (the most common entry), and whom a player who
    // may take an extra turn now (MH-12) asks, one tap for both; then another actor
    const extras = N.may_act.filter((n) => n !== implied);
    if (implied && !pickActor) verbChoices(null, implied, extras);
    if (pickActor || !implied) {
      const who = group("Who acts");
      for (const n of E.names) who.append(button(n, () => { pickActor = false; put(n); }));
      if (implied) who.append(button("Back", () => { pickActor = false; renderChoices(); }));
    } else {
      const who = group("Who acts");
      const me = document.createElement("span");
      me.className = "actor";
      me.textContent = implied + " (on turn)";
      who.append(me);
      for (const n of extras) who.append(button(n, () => put(n)));   // an extra turn's other verbs
      who.append(button("Someone else acts", () => { pickActor = true; renderChoices(); }));
    }
    const lead = E.lead;
    if (lead.length) {
      const g = group("Table");
      for (const k of lead) {
        const s = spec(k);
        const direct = colonNext(s) && !whose(k);
        g.append(button(k, () => put(direct ? k + ":" : k)));
      }
    }
  }

  // Lead keywords whose numbers and names come from the game's state (web/live.py
  // lead_data; without it what the grammar allows): Mysterium's "hour 3", "crow" (the whole
  // hand) or "crow: 2", "group 1: Ana", "verdict: 2", "culprit: 2", and a psychic's vote
  // "Ana votes 2" (MY-20); Hand's round. True where the keyword is one of them (its
  // choices drawn).
  function leadChoices(p) {
    const k = (p.verb || "").toLowerCase();
    const L = tapState().leads;
    const upto = (n) => Array.from({ length: n }, (_, i) => String(i + 1));
    const ans = p.answer === null ? null : p.answer.trim();
    const numbers = (title, ns, make, on) => {
      if (!ns.length) return;                         // none left (the clock has stopped)
      const g = group(title);
      for (const n of ns.map(String)) g.append(button(n, () => put(make(n)), on === n));
    };
    if (E.game === "mysterium" && p.actor && k === "votes") {
      if (!p.rest.length) {
        numbers("Votes for group", L.all_groups || upto(E.names.length), (n) => p.actor + " votes " + n);
      }
      return true;
    }
    // a psychic's guess (MY-12): the kind of its stage, then the cards of that kind it may
    // guess (web/mysterium.py lead_data "guess": none already in a sleeve, MY-2)
    if (E.game === "mysterium" && p.actor && k === "guesses" && p.answer === null && L.guess) {
      const G = L.guess[p.actor] || {};
      if (!p.rest.length) { numbers("Which kind", Object.keys(G), (w) => p.actor + " guesses " + w); return true; }
      if (p.rest.length > 1) return false;
      const kind = p.rest[0].toLowerCase();
      numbers("Card: " + kind, G[kind] || [], (n) => p.actor + " guesses " + kind + " " + n);
      return true;
    }
    if (E.game === "twenty-two" && p.actor && (k === "leads" || k === "plays")) return trickChoices(p);
    if (p.actor) return false;
    if (E.game === "hand" && k === "round") { roundChoices(p, L, upto); return true; }
    if (E.game !== "mysterium" || !["hour", "crow", "group", "verdict", "culprit"].includes(k)) return false;
    if (k === "hour") {
      if (!p.rest.length && ans === null) numbers("Which hour", L.hour || upto(7), (n) => "hour " + n);
    } else if (k === "crow") {
      if (p.rest.length) return true;
      const g = group("Crow: cards discarded");
      g.append(button("whole hand", () => put("crow"), ans === null));
      for (const n of (L.crow || upto(7)).map(String)) {
        g.append(button(n, () => put("crow: " + n), ans === n));
      }
    } else if (k === "group") {
      if (!p.rest.length && ans === null) {
        numbers("Which group", L.groups || upto(E.names.length), (n) => "group " + n + ":");
      } else if (p.rest.length === 1) {
        const kinds = Object.keys(L.random || {});
        const parts = randomGroup(ans, kinds);
        if (!parts || !parts.length) {
          choiceList("Whose group", L.psychics || E.names,
            (w) => put(compose(p, p.head, w)), "", ans ? [ans] : []);
        }
        // with 2 players, a random group of discarded cards (MY-16): one card of each
        // kind in turn, "character 3, location 9, object 17"; the kind to choose next
        // first (in sight at the panel's top), then those chosen (to change one)
        const got = (parts || []).length;
        const order = parts ? kinds.map((k, i) => i).filter((i) => i <= got) : [];
        order.sort((a, b) => (b === got) - (a === got) || a - b);
        for (const i of order) {
          const kind = kinds[i];
          const now = parts && parts[i] !== undefined ? String(parts[i]) : null;
          choiceList("Random group: " + kind, L.random[kind].map(String), (n) => {
            const now = parts.slice(0, i).concat([n]).concat(parts.slice(i + 1));
            put(compose(p, p.head, now.map((x, j) => kinds[j] + " " + x).join(", ")));
          }, "numbers", now === null ? [] : [now]);
        }
      }
    } else if (!p.rest.length) {                       // verdict, culprit
      numbers("Which group", L.all_groups || upto(E.names.length), (n) => k + ": " + n, ans);
    }
    return true;
  }

  // Mysterium's random group as written so far ("character 3, location 9": the numbers by
  // kind, in the kinds' order), [] for none yet, null for anything else (a psychic).
  function randomGroup(ans, kinds) {
    if (!kinds.length) return null;
    if (!ans) return [];
    const parts = ans.split(",").map((x) => x.trim().split(/\s+/));
    if (parts.length > kinds.length) return null;
    const ok = parts.every((w, i) => w.length === 2 && w[0].toLowerCase() === kinds[i] && /^\d+$/.test(w[1]));
    return ok ? parts.map((w) => w[1]) : null;
  }

  // Twenty-Two's plays to a trick (TT-9, TT-10): "Ana leads 5H 5S", "Ben plays 9C", and
  // a whole trick or its rest on one line, "Ana leads 7H; Ben 9C; Cleo 2S" (docs/twenty-two.md),
  // by the players the engine says play next (web/twenty_two.py lead_data: for the first
  // play the page's, for each next one the server's after the plays before it, GET /leads).
  // Each play's cards one tap each, a second tap taking one back; only the cards that
  // keep the play within one the rules allow are offered: a known hand's legal plays,
  // another player's lead of one rank or any follow of as many cards as were led, from
  // the cards they may hold. Once a play is whole, the next player's cards are offered
  // too (group "Ben plays"): a tap there adds "; Ben 9C". A statement of another player,
  // or with cards beyond the taps, is left as typed. True where drawn.
  function trickChoices(p) {
    const first = tapState().leads.next;
    if (!first || (p && p.actor !== first.player)) return false;
    const segs = p ? p.body.split(";").map((x) => x.trim().split(/\s+/).filter(Boolean).map(canon)) : [[]];
    const plays = segs.map((w, i) => (i === 0 ? w.slice(2) : w.slice(1)));
    const line = (upto) => segs.slice(0, upto).map((w) => w.join(" ")).join("; ");
    const k = segs.length - 1;
    const T = k === 0 ? first : ((leadsAfter(line(k)) || {}).next || null);
    if (!T) return true;                                 // not known yet (asked) or none
    if (k > 0 && (T.verb !== "plays" || (segs[k].length && segs[k][0] !== T.player))) return true;
    const chosen = plays[k];
    if (chosen.some((c) => !T.cards.includes(c))) return true;       // typed: left alone
    const head = k === 0 ? T.player + " " + T.verb : line(k) + "; " + T.player;
    const write = (cards) => put(head + (cards.length ? " " + cards.join(" ") : ""));
    // the trick goes on: after a whole follow the next player's cards first (the next
    // step, in sight at the panel's top), then this play's (to change it); after a lead
    // its own first (a lead of one card may take more of its rank: a short group)
    const N = isWhole(T, chosen) ? (leadsAfter(line(k + 1)) || {}).next : null;
    const lead = T.verb === "leads";
    if (lead) playChoices(T, chosen, write);
    if (N && N.verb === "plays") {
      playChoices(N, [], (cards) => put(line(k + 1) + "; " + N.player + " " + cards.join(" ")));
    }
    if (!lead) playChoices(T, chosen, write);
    return true;
  }

  const rankOf = (c) => (c === "Jk" ? "Jk" : c.slice(0, -1));
  const tally = (xs) => xs.reduce((m, x) => m.set(x, (m.get(x) || 0) + 1), new Map());
  function within(xs, play) {                      // the ranks xs are a part of play's
    const have = tally(play);
    for (const [r, k] of tally(xs)) if ((have.get(r) || 0) < k) return false;
    return true;
  }

  // Whether "chosen" is a whole play of T (a play of lead_data): one of its plays, or as
  // many cards as were led where any may be.
  function isWhole(T, chosen) {
    return chosen.length > 0 && (T.plays === null ? chosen.length === T.n
      : T.plays.some((play) => play.length === chosen.length && within(chosen.map(rankOf), play)));
  }

  // One play's cards (T: a play of lead_data), "chosen" so far: the group "<player>
  // <verb>" of the cards that keep it within a play the rules allow, each tap writing the
  // cards (write).
  function playChoices(T, chosen, write) {
    const fits = (cards) => (T.plays === null ? cards.length <= T.n
      : T.plays.some((play) => within(cards.map(rankOf), play)));
    const copies = tally(T.cards), taken = tally(chosen);
    const offer = [...copies.keys()].filter((c) => taken.has(c)
      || fits(chosen.concat([c])));
    if (!offer.length) return;                        // no empty group
    choiceList(T.player + " " + T.verb, offer, (c) => {
      const more = chosen.concat([c]);
      if ((taken.get(c) || 0) < copies.get(c) && fits(more)) write(more);
      else write(chosen.filter((x) => x !== c));        // tapped again: taken back
    }, offer.length > 10 ? "cards" : "hand", chosen);  // a few: wrapped, not a row a suit
  }

  // What the tap entry offers after "line" (GET /leads, web.live.entry_after: its leads,
  // who is on turn and who else may act), after the statements still on their way too,
  // kept per version; null while asked (the choices are drawn again with the answer).
  const leadsCache = new Map();
  function afterData(line) {
    const after = onItsWay.concat(line ? [line] : []).join("\n");
    const key = version + "\n" + after;
    if (leadsCache.has(key)) return leadsCache.get(key);
    if (leadsCache.size > 32) leadsCache.clear();
    leadsCache.set(key, null);
    get("/leads?after=" + encodeURIComponent(after))
      .then((r) => (r.ok ? r.json() : null))
      .then((d) => {
        leadsCache.set(key, d && d.version === version ? d : { leads: {}, turn: null, may_act: [] });
        renderChoices();
      })
      .catch(() => { leadsCache.delete(key); });       // no answer: asked again next time
    return null;
  }
  function leadsAfter(line) {
    const d = afterData(line);
    return d && d.leads;
  }

  // The tap entry's turn, extra turns and leads now: the page's (E) with no statement on
  // its way, else those after the statements on their way (null while asked: the choices
  // then name nobody on turn, and are drawn again with the answer).
  function tapState() {
    if (!onItsWay.length) {
      return bridge || { turn: E.turn, may_act: E.may_act || [], leads: E.leads || {} };
    }
    const d = afterData("");
    if (!d) return { turn: null, may_act: [], leads: {} };
    lastAfter = { turn: d.turn, may_act: d.may_act || [], leads: d.leads || {} };
    return lastAfter;
  }

  // Hand's scoring statement (HR-37..HR-42, docs/hand.md): "round 2: Ana out partial; Ben
  // 45, Cleo no-meld", "round 2: unscored stock", "round 2: unscored redeal Ana". The
  // round, who went out and how (the Full Hand's bonuses the variant allows), then each
  // opponent's penalty (the winner's partner has none): no-meld, or its points digit by
  // digit (cards left are typed).
  let penCards = null;       // the player whose penalty is being given as cards (none yet)
  function roundChoices(p, L, upto) {
    if (!p.rest.length && p.answer === null) {
      penCards = null;
      const rounds = "round" in L ? (L.round ? [L.round] : []) : upto(7);
      if (!rounds.length) return;                     // the game is over
      const g = group("Which round");
      for (const n of rounds.map(String)) g.append(button(n, () => put("round " + n + ":")));
      return;
    }
    // "round 2 indicator 7C: ..." (the indicator tapped for a penalty in cards, HR-38);
    // "round 2 dealer Ben ...": typed
    const marked = p.rest.length === 3 && p.rest[1].toLowerCase() === "indicator";
    if (p.rest.length !== 1 && !marked) return;
    const ans = (p.answer || "").trim();
    const [outPart, ...more] = ans.split(";");
    const out = outPart.trim().split(/\s+/).filter(Boolean);
    const write = (text) => put(compose(p, p.head, text));
    if (!out.length) {
      choiceList("Who went out", E.names, (w) => write(w + " out"), "");
      const g = group("Or");
      for (const w of ["unscored stock", "unscored redeal"].concat(L.stock ? ["stock"] : [])) {
        g.append(button(w, () => write(w === "stock" ? "stock; " : w)));
      }
      return;
    }
    if (out[0] === "unscored") {
      if (out[1] === "redeal" && out.length === 2) {
        choiceList("Who asked for it (or none)", E.names, (w) => write("unscored redeal " + w), "");
      }
      return;
    }
    const stock = out.length === 1 && out[0] === "stock";
    const winner = stock ? null : out[0];
    if (!stock && (out[1] !== "out" || !E.names.includes(winner))) return;   // typed
    if (!stock && out.length === 2) {
      const g = group("How");
      for (const w of ["partial", "full-hand"]) g.append(button(w, () => write(winner + " out " + w + "; ")));
      return;
    }
    if (!stock && out[2] === "full-hand" && (L.bonuses || []).length) {
      const have = out.slice(3);
      choiceList("Bonuses", L.bonuses, (w) => {
        const now = have.includes(w) ? have.filter((x) => x !== w) : have.concat([w]);
        write([winner, "out", "full-hand"].concat(now).join(" ") + "; " + more.join(";").trim());
      }, "", have);
    }
    const partner = (L.partner || {})[winner];
    const opponents = E.names.filter((n) => n !== winner && n !== partner);
    const pens = new Map();
    for (const part of more.join(";").split(",")) {
      const w = part.trim().split(/\s+/).filter(Boolean);
      if (w.length >= 2 && E.names.includes(w[0])) pens.set(w[0], w.slice(1).join(" "));
    }
    const setPen = (who, value) => {
      if (who === penCards && /^(\d+|no-meld)$/.test(value)) penCards = null;
      if (value) pens.set(who, value); else pens.delete(who);
      const order = opponents.concat([...pens.keys()].filter((n) => !opponents.includes(n)));
      const listed = order.filter((n) => pens.has(n)).map((n) => n + " " + pens.get(n));
      write(outPart.trim() + "; " + listed.join(", "));
    };
    // a penalty in cards holding an ace or a joker counts by the round's wilds (HR-38):
    // the indicator (the round record's own, else any card), first, as the next step
    const inCards = [...pens.values()].flatMap((v) => v.split(/\s+/));
    if (!marked && inCards.some((c) => (L.by_wilds || []).includes(c))) {
      const turned = L.indicator ? [L.indicator] : Object.keys(L.copies || {}).filter((c) => c !== "Jk");
      choiceList("Round's indicator", turned, (c) => {
        put(compose(p, "round " + p.rest[0] + " indicator " + c, p.answer.trim()));
      }, "cards");
    }
    for (const who of opponents) {
      const now = pens.get(who) || "";
      const points = /^\d+$/.test(now) ? now : "";
      const cards = now && !points && now !== "no-meld" ? now.split(/\s+/) : null;
      const g = group("Penalty: " + who, "penalty");
      g.append(button("no-meld", () => setPen(who, "no-meld"), now === "no-meld"));
      for (const d of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]) {
        g.append(button(d, () => setPen(who, points + d)));
      }
      const back = button("\u232B", () => setPen(who, points.slice(0, -1)));
      back.setAttribute("aria-label", "Take back a digit");
      g.append(back);
      // or the cards left (HR-38): the hand the round record gives whole in one tap, else
      // one tap a copy, a tap that can add none taking that card's copies back
      const left = (L.left || {})[who];
      if (left && left.length) {
        const all = left.join(" ");
        g.append(button(all, () => setPen(who, all), now === all));
      }
      const copies = L.copies || {};
      if (!Object.keys(copies).length) continue;
      g.append(button("cards", () => {
        penCards = who;
        renderChoices();
        // the cards below the digits: in sight under the panel's bar
        const shown = [...choicesEl.querySelectorAll("[role=group]")]
          .find((x) => x.getAttribute("aria-label") === "Cards left: " + who);
        if (shown) shown.scrollIntoView({ block: "start" });
      }, !!cards || penCards === who));
      if (!cards && penCards !== who) continue;
      const have = cards || [];
      choiceList("Cards left: " + who, Object.keys(copies), (c) => {
        const n = have.filter((x) => x === c).length;
        penCards = who;
        setPen(who, (n < copies[c] ? have.concat([c]) : have.filter((x) => x !== c)).join(" "));
      }, "cards", have);
    }
  }

  // Whether the colon comes right after the keyword ("Ana holds:", "faceup:"), not a word
  // first (Twenty-Two's "Ben deals 7": web/live.py worded).
  function colonNext(s) {
    return !!s && s[1].length === 1 && s[1][0].length === 0 && !(E.worded || []).includes(s[0]);
  }

  // Mystery Hand with two players: a mystery hand is a player's own ("mystery Ana: ...",
  // MH-28), so "mystery" is followed by whose before the cards.
  function whose(keyword) {
    return E.game === "mystery-hand" && E.names.length === 2 && keyword.toLowerCase() === "mystery";
  }

  function verbChoices(p, actor, extras) {
    if (E.game === "clue" && E.groups.length === 3) {      // a suggestion: its suspect first
      choiceList("Suggests: " + KINDS[0].toLowerCase(), E.groups[0],
        (w) => put(actor + " suggests " + w), "");
    }
    const asks = spec("asks");
    const base = p ? "" : "";
    if (asks) {
      let targets = expand(asks[1][0], actor).filter((w) => !E.cards.includes(w) && !E.ranges.includes(w));
      if (E.asks && E.asks.whom && E.asks.whom[actor]) targets = E.asks.whom[actor];   // the engine's state
      if (asks[1][0].includes(NAMES) || asks[1][0].includes("all")) {
        const g = group("Asks whom");
        for (const t of targets) g.append(button(t, () => put(base + actor + " asks " + t)));
        for (const n of extras || []) {
          const xg = group(n + " (extra turn) asks whom");
          const whom = expand(asks[1][0], n).filter((w) => !E.cards.includes(w) && !E.ranges.includes(w));
          for (const t of whom) xg.append(button(t, () => put(n + " asks " + t)));
        }
      }
    }
    const g = group("Or");
    for (const v of E.verbs) {
      if (v === "asks" && asks && (asks[1][0].includes(NAMES))) continue;
      g.append(button(v, () => {
        const direct = colonNext(spec(v));
        put(actor + " " + v + (direct ? ":" : ""));
      }));
    }
    if (E.game === "mystery-hand" || E.game === "literature") {
      g.append(button("?", () => put(actor + ": ?")));    // a whole turn not seen
    }
  }

  function slotChoices(p, s) {
    const slots = s[1], answers = s[2];
    const n = p.rest.length;
    const verb = (p.verb || "").toLowerCase().replace(/:$/, "");
    const answering = p.answer !== null || n >= slots.length || colonNext(s);
    if (!answering) {
      const slot = slots[n];
      if (slot.length === 0) {              // a free word: a number (Literature's "has N cards")
        const g = group("How many");
        for (let i = 0; i <= 13; i++) g.append(button(String(i), () => put(p.head + " " + i)));
        return;
      }
      const title = slot.includes(RANGES) ? "Which range" : slot.includes(CARDS) ? "Which card" : slot.includes(NAMES) ? "Whom" : "Next";
      let words = expand(slot, p.actor);         // nobody asks or passes to themselves
      if (verb === "asks" && n === 1 && E.asks && E.asks.cards && E.asks.cards[p.actor]) {
        words = E.asks.cards[p.actor].concat(slot.includes("?") ? ["?"] : []);
      }
      if (verb === "claims" && slot.includes(RANGES) && E.asks && E.asks.open) {
        words = E.asks.open;                        // a half-suit still open (LIT-11)
      }
      if (E.game === "hand" && verb === "takes" && tapState().leads.takes) {
        words = tapState().leads.takes;                      // the top discard only (HR-28, HR-29)
      }
      // a discard from a hand known whole (the view's own): one of its cards (HR-28)
      const whole = E.game === "hand" && verb === "discards" && (tapState().leads.left || {})[p.actor];
      if (whole && whole.length) words = [...new Set(whole)];
      choiceList(title, words, (w) => {
        const own = ownAnswer(p, verb, n === slots.length - 1 ? w : null);
        put(own === null ? p.head + " " + w : compose(p, p.head + " " + w, own));
      }, slot.includes(RANGES) ? "ranges" : slot.includes(CARDS) ? "cards" : "");
      return;
    }
    if (p.answer === null && verb === "announces") {        // more cards, or the answer
      choiceList("Which cards", E.cards, (w) => {            // a second tap takes it back
        const words = p.head.split(/\s+/);
        const i = words.lastIndexOf(w);
        put(i > 1 ? words.slice(0, i).concat(words.slice(i + 1)).join(" ") : p.head + " " + w);
      }, "cards", p.rest);
    }
    if (!answers.length) return;
    answerChoices(p, verb, answers);
  }

  function choiceList(title, words, onpick, cls, pressed) {
    const g = group(title, cls);
    if (cls === "ranges" || cls === "cards") {
      // one row per suit (and the rank sets), so that the grid reads as a deck
      const rows = new Map();
      for (const w of words) {
        // a playing card's suit; named cards (Clue's) in one row
        const key = /\*$/.test(w) ? "*" : w === "?" ? "?"
          : /^(10|[2-9AJQK])[SHDC]$|^[2-9AJQK1][0-9]?[SHDC]-/.test(w) ? w.slice(-1) : "";
        if (!rows.has(key)) rows.set(key, []);
        rows.get(key).push(w);
      }
      for (const [, ws] of rows) {
        const row = document.createElement("div");
        row.className = "choice-row";
        for (const w of ws) row.append(button(w, () => onpick(w), pressed ? pressed.includes(w) : undefined));
        g.append(row);
      }
    } else {
      for (const w of words) g.append(button(w, () => onpick(w), pressed ? pressed.includes(w) : undefined));
    }
    return g;
  }

  function rangeOf(p) {
    for (const w of p.rest) if (E.range_cards[w]) return w;
    return null;
  }

  function answerChoices(p, verb, answers) {
    const ans = p.answer === null ? "" : p.answer;
    const target = p.rest[0] || null;
    const range = rangeOf(p);
    // Mystery Hand: an ask of all: one count per player asked (MH-13)
    if (E.game === "mystery-hand" && verb === "asks" && target === "all") {
      askAllRows(p, range);
      return;
    }
    if (E.game === "mystery-hand" && verb === "asks") {
      const g = group("Answer: how many shown");
      for (const c of ["0", "1", "2", "3", "4", "?"]) {
        g.append(button(c, () => {
          // shown to the asker: a count that only one set of cards can make is that set
          const sets = p.actor === E.view && range && /^[1-4]$/.test(c)
            ? combos(mayHold(target, E.range_cards[range]), Number(c)) : [];
          put(compose(p, p.head, sets.length === 1 ? sets[0].join(" ") : c));
        }, ans === c));
      }
      if (range && E.view && (p.actor === E.view || target === E.view)) {
        const shown = ans.split(/\s+/).filter((w) => E.cards.includes(w));
        const order = E.range_cards[range];
        // the cards the one who shows may hold (the view's own hand when it shows), and
        // any typed already
        const mine = new Set((E.held || {})[E.view] || []);
        const may = target === E.view ? order.filter((c) => mine.has(c)) : mayHold(target, order);
        const offer = order.filter((c) => may.includes(c) || shown.includes(c));
        choiceList("Cards shown", offer, (w) => {
          const now = shown.includes(w) ? shown.filter((x) => x !== w) : shown.concat([w]);
          now.sort((a, b) => order.indexOf(a) - order.indexOf(b));
          put(compose(p, p.head, now.length ? now.join(" ") : "0"));
        }, "cards", shown);
        // a count of two or more shown to the asker: the sets of that many cards it may
        // hold, one tap each (a whole answer in one tap: an ask of one in at most 5 taps)
        const k = /^[2-4]$/.test(ans) ? Number(ans) : shown.length >= 2 ? shown.length : 0;
        if (p.actor === E.view && k) {
          const sets = combos(mayHold(target, order), k);
          if (sets.length) {
            const sg = group("Which " + k + " shown", "cards");
            for (const c of sets) {
              const text = c.join(" ");
              sg.append(button(text, () => put(compose(p, p.head, text)), ans === text));
            }
          }
        }
      }
      return;
    }
    const hasCards = answers.includes(CARDS), hasNames = answers.includes(NAMES);
    if (hasCards) {
      let cards = (range && E.range_cards[range] && (verb === "claims" || verb === "shown")) ? E.range_cards[range] : E.cards;
      const parts = ans.split(/[\s,]+/).filter(Boolean);
      // Twenty-Two's showdown (TT-13): the cards the player named last may reveal
      // (web/twenty_two.py lead_data "showdown")
      // after a player's name, that player's (none named in the line already); else a
      // name comes next, and no card is offered
      const shows = E.game === "twenty-two" && verb === "showdown" && tapState().leads.showdown;
      const last = parts.length ? parts[parts.length - 1] : null;
      if (shows) {
        cards = last !== null && E.names.includes(last) && shows[last]
          ? shows[last].filter((c) => !parts.includes(c)) : [];
      }
      // a claim names only the claimant's team (LIT-11); a shown line, anybody
      const team = verb === "claims" && E.asks && E.asks.team && E.asks.team[p.actor];
      if (hasNames) {
        choiceList("Who", team || E.names, (w) => put(compose(p, p.head, ans ? ans.replace(/,\s*$/, "") + ", " + w : w)), "", parts);
      }
      const others = answers.filter((a) => !a.startsWith("<"));
      if (others.length) {
        const g = group("Answer");
        for (const w of others) g.append(button(w, () => put(compose(p, p.head, w)), ans === w));
      }
      if (cards.length) choiceList("Cards", cards, (w) => {
        if (!hasNames) {
          const now = parts.includes(w) ? parts.filter((x) => x !== w) : parts.concat([w]);
          put(compose(p, p.head, now.join(" ")));
        } else {
          put(compose(p, p.head, ans ? ans + " " + w : w));
        }
      }, "cards", parts);
      return;
    }
    const words = expand(answers, null);
    const g = group("Answer");
    for (const w of words) g.append(button(w, () => put(compose(p, p.head, w)), ans === w));
  }

  // The view's own answer to an ask of it: the cards of the range it holds (its hand is
  // known), filled in as soon as the range is tapped (Literature: the card, yes or no);
  // null where it does not apply.
  function ownAnswer(p, verb, range) {
    const target = p.rest[0];
    if (verb !== "asks" || !range || !E.view || target !== E.view) return null;
    const mine = (E.held || {})[E.view] || [];
    if (!mine.length) return null;              // the hand is not written yet
    if (E.game === "literature") return E.cards.includes(range)
      ? (mine.includes(range) ? "yes" : "no") : null;
    if (E.game !== "mystery-hand" || !E.range_cards[range]) return null;
    const shown = E.range_cards[range].filter((c) => mine.includes(c));
    return shown.length ? shown.join(" ") : "0";
  }

  // The cards of ``cards`` that ``who`` may hold: none another place certainly has.
  // the cards of "cards" that "who" may hold: none certainly elsewhere, none the analysis
  // rules out for them (E.possible: the places of each card not certain)
  function mayHold(who, cards) {
    const elsewhere = new Set();
    for (const [place, held] of Object.entries(E.held || {})) {
      if (place !== who) for (const c of held) elsewhere.add(c);
    }
    const P = E.possible || {};
    return cards.filter((c) => !elsewhere.has(c) && (!P[c] || P[c].includes(who)));
  }

  function combos(items, k) {
    if (k === 0) return [[]];
    const out = [];
    items.forEach((x, i) => {
      for (const rest of combos(items.slice(i + 1), k - 1)) out.push([x].concat(rest));
    });
    return out;
  }

  // An ask of all's counts by player: "Ben 1, Cleo 0", or the counts alone in seating
  // order, the asker and the players out skipped ("1 0": record-format.md); none = 0.
  function parseCounts(ans, asked) {
    const m = new Map();
    const count = (c) => (/^none$/i.test(c) ? "0" : c);
    const bare = (ans || "").split(/[\s,]+/).filter(Boolean);
    if (bare.length && bare.every((c) => /^(\d+|none|\?)$/i.test(c))) {
      bare.slice(0, asked.length).forEach((c, i) => m.set(asked[i], count(c)));
      return m;
    }
    for (const part of (ans || "").split(",")) {
      const w = part.trim().split(/\s+/);
      if (w.length === 2) m.set(w[0], count(w[1]));
    }
    return m;
  }

  function askAllRows(p, range) {
    const asked = (E.active || E.names).filter((n) => n !== p.actor);   // not who is out
    let counts = parseCounts(p.answer, asked);
    if (p.answer === null) {
      // the likely default: the cards of the range each player is known to hold (else 0)
      const inRange = (n) => ((E.held || {})[n] || []).filter((c) => (E.range_cards[range] || []).includes(c)).length;
      put(compose(p, p.head, asked.map((n) => n + " " + inRange(n)).join(", ")));
      return;
    }
    const g = group("Counts shown", "counts");
    for (const n of asked) {
      const row = document.createElement("div");
      row.className = "count-row";
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", n);
      const label = document.createElement("span");
      label.className = "count-name";
      label.textContent = n;
      label.setAttribute("aria-hidden", "true");
      row.append(label);
      for (const c of ["0", "1", "2", "3", "4", "?"]) {
        row.append(button(c, () => {
          counts = parseCounts(parse(box.value).answer, asked);
          counts.set(n, c);
          put(compose(p, p.head, asked.map((x) => x + " " + (counts.get(x) || "0")).join(", ")));
        }, counts.get(n) === c));
      }
      g.append(row);
    }
    // a name too long for its place: the names' column takes the room left, in a smaller
    // font, and a name wraps whole (app.css) rather than ending in "..." beside "Ana"
    const labels = [...g.querySelectorAll(".count-name")];
    if (labels.some((l) => l.scrollWidth > l.clientWidth)) {
      for (const l of labels) l.classList.add("long");
    }
  }

  // A change sent whose answer never came: the page reloaded while it was on its way
  // (``when`` RELOADED), or the connection went (RECONNECTED: asked when the poll finds the
  // server again, no reload). The server is asked what became of it by its id (GET /sent,
  // which waits for one still being done), never taken for not saved while it may still be
  // saving it. Saved: the draft it left in the box (or its copy kept under it) goes and the
  // status says its line; refused: said, the statement in the box (or kept under it); the
  // server never got it: said not saved, the statement in the box (logged, it goes with the
  // same id: never twice). Its id is dropped once its fate is known (answeredId): the same
  // text typed later as a new statement is a new change, not "saved before".
  const RELOADED = "before the page was reloaded", RECONNECTED = "when the connection went";
  const ANSWER_LOST = "when its answer was lost";
  let checkingSent = false;   // a check of the change sent without answer is under way
  async function sentBefore(when) {
    if (checkingSent) return;
    checkingSent = true;
    try { await askSent(when || RELOADED); } finally { checkingSent = false; }
    settleIds();
  }
  async function askSent(when) {
    const reload = when === RELOADED;
    let sent = null, answer = null, left = 0;
    try {
      sent = JSON.parse(localStorage.getItem(sentKey) || "null");
      if (reload) {
        answer = JSON.parse(localStorage.getItem(answerKey) || "null");
        left = Number(localStorage.getItem(leftKey) || 0);
        localStorage.removeItem(answerKey);
        localStorage.removeItem(leftKey);
      }
    } catch (e) { sent = null; }
    // answered while the reload had begun (or just before it: 1 s): that answer, said
    const late = reload && answer && answer.result && left && answer.at >= left - 1000
      && Date.now() - answer.at < 60000 ? answer : null;
    if ((!sent || !sent.line) && !late) { markSent(null); return; }
    if (!sent || !sent.line) sent = { line: late.line, id: late.id };
    const line = sent.line;
    const statement = !/^(undo|redo|delete|edit|force)\b/i.test(line.trim());
    const back = () => {                  // the statement in the box, or kept under it
      if (!statement || norm(box.value) === norm(line)) return;
      if (!box.value.trim()) { setBox(line); awayIds(line, true); }
      else keep(line, "sent " + when + ", not saved", "Not saved: ");
    };
    const gone = () => {                  // saved: its copies left in the box or under it
      if (norm(box.value) === norm(line)) setBox("");
      if (refusedLine !== null && norm(refusedLine) === norm(line)) refusedLine = null;
      dropNotSent(line);
    };
    let g = late && late.id === sent.id ? { state: "done", result: late.result } : null;
    let asking = null;
    if (sent.id && !g) {
      asking = "checking whether '" + line + "', sent " + when + ", was saved...";
      say(asking);
      for (;;) {
        try {
          const r = await get("/sent?id=" + encodeURIComponent(sent.id));
          g = r.ok ? await r.json() : null;
        } catch (e) { g = null; }
        if (!g || g.state !== "running") break;
      }
    }
    if (sent.id && g) {
      // the status is this check's unless another action was answered meanwhile
      if (asking !== null && statusEl.textContent !== asking) {
        if (g && g.state !== "running") markSent(null);
        if (g && g.state === "done" && g.result) {
          answeredId(line, sent.id);
          if (g.result.saved) gone();
        }
        return;
      }
    }
    if (sent.id) {
      if (!g) {
        say("no answer from the server: whether '" + line + "', sent " + when + ", was "
          + "saved is not known yet; logged again, it is not saved twice");
        back();
        return;
      }
      markSent(null);
      if (g.state === "done" && g.result) {
        answeredId(line, sent.id);
        const d = g.result;
        if (d.saved) {
          gone();
          say(doneBefore(d.status, sent.id, when));
          loadLive();
        } else {
          say("not saved " + when + ": " + d.status);
          if (d.kind === "refused") {
            statusEl.classList.add("refusal");
            refusedLine = line; refusedWhy = d.status; refusedHead = null;
          }
          back();
        }
        return;
      }
    }
    markSent(null);
    // the server does not know the id (it never got the change, or it was started again
    // since): one of the record's last lines, the record moved on since it was sent
    // (after a lost connection: the record as it is now, loaded first)
    if (!reload) await loadLive();
    // the id is of no use any more: the server has no answer under it to give again
    if (sent.id) answeredId(line, sent.id);
    const hit = statement ? addedSince(line, sent.version) : null;
    if (hit) {
      gone();
      say((hit.dataset.held ? "held " : "logged ") + when + ": line " + hit.dataset.line
        + ": " + line);
    } else if (!statement) {
      say("'" + line + "' was sent " + when + ": check the Lines for whether it was done");
    } else {
      back();
      say("not saved " + when + " (the server does not know it: not in the record): " + line
        + (norm(box.value) === norm(line) ? "; it is in the box: log it" : ""));
    }
  }

  // One of the record's last lines (as the page shows it now) that says ``line``, the record
  // having moved on since the version ``on`` it was sent on: the send saved it (its
  // button: data-line, data-text), else null. The ``# held:`` comment line ending the
  // record, holding that statement, is its save too (held: data-held set).
  function addedSince(line, on) {
    const lines = [...document.querySelectorAll("#live li[data-line] button.edit")].slice(0, 5);
    const live = document.getElementById("live");
    const now = live ? live.dataset.version : null;
    if (!now || !on || now === on) return null;
    const held = live.dataset.held || "";
    if (held && live.dataset.heldLine && norm(held) === norm(line)) {
      return { dataset: { line: live.dataset.heldLine, text: held, held: "yes" } };
    }
    return lines.find((b) => norm(b.dataset.text || "") === norm(line)) || null;
  }

  // The copy of ``line`` kept under the box as sent without an answer ("Not sent: "):
  // dropped once the record has the line.
  function dropNotSent(line) {
    let dropped = false;
    for (const el of keptEl.querySelectorAll(".kept-item")) {
      if (el.dataset.head === "Not sent: " && norm(el.dataset.line) === norm(line)) {
        el.remove();
        dropped = true;
      }
    }
    if (dropped) storeKept();
  }

  // The other ids of changes sent without an answer (one sent before another that was then
  // answered, before a reload or while the connection was gone): each whose fate the server
  // knows now is dropped, so that the same text logged later as a new statement is not
  // answered "saved before". A saved one's "Not sent" copy under the box goes with it (the
  // status notes its line), and so does the box's text if it is that statement. Where the
  // server does not know the id (it was started again since: ids are forgotten), the
  // record's last lines tell: one saying that statement, added since the version it was
  // first sent on, is its save (the page loads the record first). One being done, or not
  // reached, is asked again next time.
  async function settleIds() {
    let mark = null, loaded = false;
    try { mark = JSON.parse(localStorage.getItem(sentKey) || "null"); } catch (e) { mark = null; }
    for (const [key, v] of Object.entries(unanswered())) {
      if (!v || !v.id || v.id === onWay || (mark && mark.id === v.id)) continue;
      let g = null;
      try {
        const r = await get("/sent?id=" + encodeURIComponent(v.id));
        g = r.ok ? await r.json() : null;
      } catch (e) { return; }            // no connection: asked when it is back
      if (!g || g.state === "running" || v.id === onWay) continue;
      const d = g.state === "done" ? g.result : null;
      let text = null;
      if (d && d.saved) text = doneBefore(d.status, v.id, "earlier, its answer lost");
      else if (g.state === "unknown" && v.on && !NOT_STATEMENTS.includes(
        key.replace(/^force\s+/i, "").split(/\s+/)[0].toLowerCase())) {
        if (!loaded) { loaded = true; await loadLive(); }
        const hit = addedSince(key, v.on);
        if (hit) {
          text = (hit.dataset.held ? "held" : "logged") + " earlier, its answer lost: line "
            + hit.dataset.line + ": " + key;
        }
      }
      answeredId(key, v.id);
      if (text === null) continue;
      const inBox = norm(box.value) === norm(key);
      const kept = [...keptEl.querySelectorAll(".kept-item")].some((el) =>
        el.dataset.head === "Not sent: " && norm(el.dataset.line) === norm(key));
      if (inBox) setBox("");
      if (refusedLine !== null && norm(refusedLine) === norm(key)) refusedLine = null;
      if (kept) dropNotSent(key);
      if (inBox) say(text);
      else if (kept) {
        // said over the bare "connected again", else noted after what the status says
        const bare = statusEl.textContent.trim() === "" || statusEl.textContent === AGAIN;
        if (bare) say(text); else note(" (also " + text + ")");
      }
    }
  }

  // ----- start ------------------------------------------------------------------------
  // The status the server wrote into the page is the last action's of any device, for a
  // page without this script (its forms reload the page); here each page says its own.
  say("");
  try {
    let kept = localStorage.getItem(tabKey);
    if (kept === null) kept = localStorage.getItem(storeKey);
    if (kept === null && storeKey !== titleKey) {     // a draft kept under the title: moved once
      kept = localStorage.getItem(titleKey);
      if (kept !== null) { localStorage.setItem(storeKey, kept); localStorage.removeItem(titleKey); }
    }
    if (kept && !box.value) { box.value = kept; typed = kept; }
    // the statements kept below the box (put aside, refused after the box moved on)
    const items = JSON.parse(localStorage.getItem(keptKey) || "[]");
    for (const it of Array.isArray(items) ? items : []) {
      if (it && typeof it.line === "string") {
        keep(it.line, String(it.why || ""), it.head || undefined,
          Array.isArray(it.fixes) ? it.fixes.map(String) : [], true, it.logged || "");
      }
    }
  } catch (e) { /* private mode, or storage not ours */ }
  fitBox();
  bindLive();
  sentBefore(RELOADED);
  poll();
  // the page's shell from a cache when the server cannot be reached (web/static/sw.js);
  // browsers allow a service worker only on a secure origin (https, or this machine)
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/static/sw.js" + location.search, { scope: "/" })
      .catch(() => { /* no worker: the page works as before, online only */ });
  }
})();
