// The driver's page kept for a reload without a connection (scope /driver, registered by the
// page). Navigations: the network first, the last page answered when there is none. The app's
// hashed files: the kept copy, else the network (they never change under their name). Nothing
// else passes through here: the API answers are kept by the page itself.
const CACHE = 'tp-driver-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// The page names the files it loaded before this worker controlled it, and itself: kept at once.
self.addEventListener('message', (event) => {
  const urls = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  const own = urls.filter((url) => {
    const { origin, pathname } = new URL(url, self.location.origin);
    return origin === self.location.origin && (pathname.startsWith('/assets/') || pathname === '/driver');
  });
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(own))
      .catch(() => undefined),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put('/driver', copy));
          }
          return response;
        })
        .catch(() =>
          caches
            .open(CACHE)
            .then((cache) => cache.match('/driver'))
            .then((kept) => kept ?? Response.error()),
        ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname === '/favicon.svg') {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then(
          (kept) =>
            kept ??
            fetch(request).then((response) => {
              if (response.ok) void cache.put(request, response.clone());
              return response;
            }),
        ),
      ),
    );
  }
});
