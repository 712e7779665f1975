// The service worker of the Spades trainer: the app reloads, plays and opens lessons offline after
// one visit, and a new build is used from the next load on. Registered by ui/sw-register.js; its
// scope is the whole app (this file sits at the top). See README.md, "Offline".
//
// vendor/sw-build.js (written by tools/build_web.py) sets self.SPADES_BUILD = {build, files,
// bytes}: a hash over every precached file and this script, and the files the page and the
// Expert's worker fetch. The browser re-checks this script and the imported one on every
// navigation, so a new build (new hash) installs a new worker, whose cache is named by the hash.
importScripts("./vendor/sw-build.js");

const { build: BUILD, files: FILES } = self.SPADES_BUILD;
const PREFIX = "spades-";
const CACHE = PREFIX + BUILD;
const SHELL = new URL("./index.html", self.location).href;
const BUILD_INFO = new URL("./vendor/build.json", self.location).href;
const UNCACHED = new Set([
  BUILD_INFO,
  new URL("./sw.js", self.location).href,
  new URL("./vendor/sw-build.js", self.location).href,
]);
// The server's answers (the daily board, a room's record) change: never the worker's, never cached.
const API = new URL("./api/", self.location).href;
// Set by a navigation that found a newer build on the server: until the new worker takes over,
// this one answers from the network first, so that the page never mixes two builds.
let stale = false;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache": revalidated (ETag), so a first visit's downloads are not fetched twice.
    await cache.addAll(FILES.map((file) => new Request(new URL(file, self.location), { cache: "no-cache" })));
    // The new build's files are complete: take over at once rather than after every tab closes.
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || UNCACHED.has(url.href)
      || url.href.startsWith(API)) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request));
  } else {
    event.respondWith(stale ? networkFirst(request) : cacheFirst(request));
  }
});

// The page itself: the network's when online (with a check of the server's build), else the
// cached index.html (for any address in scope, e.g. "./?deal=N").
async function navigate(request) {
  try {
    const [response, current] = await Promise.all([fetch(request), serverBuild()]);
    stale = current !== null && current !== BUILD;
    return response;
  } catch (error) {
    const cached = await caches.match(SHELL, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}

async function serverBuild() {
  try {
    const response = await fetch(BUILD_INFO, { cache: "no-store" });
    return response.ok ? (await response.json()).build : null;
  } catch {
    return null;
  }
}

// The build's files (their URLs do not change between builds, the cache's name does); anything
// same-origin the list missed is kept too once fetched.
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}
