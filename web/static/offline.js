// Installs the app's service worker (web/static/sw.js, served at /sw.js) so pages already
// viewed still show offline. Browsers allow one only in a secure context: https, or this
// machine as http://localhost / 127.0.0.1; not plain http on the LAN (192.168.x.y).
(function () {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
    if (navigator.serviceWorker.controller) return;  // already kept as it was fetched
    navigator.serviceWorker.ready.then((registration) => {
      const shown = performance.getEntriesByType("resource").map((entry) => entry.name);
      registration.active.postMessage({ keep: [location.href, ...shown] });
    });
  });
})();
