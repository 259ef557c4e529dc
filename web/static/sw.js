/* sleuth serve's service worker: the page's shell (the page last shown, its script, style and
   icons) kept in a cache, so the page still opens when the server cannot be reached. Network
   first: while the server answers, everything comes from it (never a stale script); only
   GETs of the page and of /static/ are touched, the record's data never is. */
"use strict";
const CACHE = "sleuth-shell-v2";
const SHELL = ["/static/app.css", "/static/app.js", "/static/icon.svg",
               "/static/icon-192.png", "/static/icon-512.png"];

self.addEventListener("install", (ev) => {
  // the token (off loopback) rides on the worker's own URL, as on the page's links
  const q = self.location.search;
  // the page too ("/"): the page that registered the worker was loaded before it, so
  // without this a first visit's reload with the server down found nothing
  ev.waitUntil(caches.open(CACHE)
    .then((c) => Promise.all(["/", ...SHELL].map((u) => fetch(u + q).then((r) => { if (r.ok) return c.put(u, r); }))))
    .catch(() => undefined)
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((ks) => Promise.all(ks.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const page = req.mode === "navigate" && url.pathname === "/";
  if (!page && !url.pathname.startsWith("/static/")) return;
  const key = page ? "/" : url.pathname;
  ev.respondWith(fetch(req).then((r) => {
    if (r.ok) {
      const copy = r.clone();
      caches.open(CACHE).then((c) => c.put(key, copy));
    }
    return r;
  }, () => caches.match(key).then((hit) => hit || Response.error())));
});
