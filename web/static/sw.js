// The service worker (served at /sw.js, scope "/"): keeps the app shell and every table page
// viewed, with its JSON and warped photos, so a table already seen still shows offline.
// Network first: online, answers always come from the server (and refresh the copy kept);
// offline, the copy kept is shown. Only GETs of this app's own pages are kept: never a change
// (POST, PUT, DELETE), never another site, never an export or a QR code.
const CACHE = "btc-scorer-v4"; // v4: scoreboard.js and seat-tags.js added to the table page's modules
const SHELL = [
  "/", "/static/app.css", "/static/common.js", "/static/offline.js", "/static/index.js",
  "/static/campaign.js", "/static/app-192.png",
  ...["main", "state", "api", "words", "cards", "grid", "seating", "scores", "scoreboard", "undo", "drawing", "seat-tags"]
    .map((name) => `/static/table/${name}.js`),
  ...["shop", "factory", "tavern-drink", "tavern-food", "tavern-music", "tavern-bed", "office",
      "park", "house"].map((name) => `/static/icons/${name}.png`),
];
const KEPT = [
  /^\/$/, /^\/static\/[\w./-]+$/, /^\/tables\/[\w-]+$/, /^\/campaigns(\/[\w-]+)?$/,
  /^\/api\/tables\/[\w-]+$/, /^\/api\/tables\/[\w-]+\/cities\/\d+\/warped\.jpg$/,
  /^\/api\/campaigns\/[\w-]+$/,
];

function keepable(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin
    && KEPT.some((pattern) => pattern.test(url.pathname));
}

async function keep(request, response) {
  if (response.ok && response.type === "basic") {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request) {
  try {
    return await keep(request, await fetch(request));
  } catch (error) {
    const kept = await caches.match(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("install", (event) => {
  // Best effort: one missing file does not stop the worker from installing.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(
    SHELL.map((url) => cache.add(url).catch(() => undefined)))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method === "DELETE" && url.origin === self.location.origin) {
    // A deleted table (or campaign) is forgotten here too.
    const gone = url.pathname.match(/^\/api\/(tables|campaigns)\/([\w-]+)$/);
    if (gone) event.waitUntil(forget(gone[1], gone[2]));
    return;
  }
  if (keepable(request)) event.respondWith(networkFirst(request));
});

async function forget(kind, id) {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path === `/${kind}/${id}` || path.startsWith(`/api/${kind}/${id}`)) await cache.delete(request);
  }
}

// The page loaded before this worker took over tells it what it showed (its own address, the
// table's JSON, its photos): those are kept at once, so the first view already works offline.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) return;
  const requests = urls.slice(0, 200).map((u) => new Request(u)).filter(keepable);
  event.waitUntil(Promise.all(requests.map((r) => fetch(r).then((res) => keep(r, res))
    .catch(() => undefined))));
});
