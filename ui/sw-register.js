// Registers the service worker (../sw.js) that keeps the app usable offline, once the page has
// loaded, so that its downloads never compete with the page's own. The worker precaches by
// revalidation: what this visit downloaded is not downloaded again.
if ("serviceWorker" in navigator && window.isSecureContext) {
  addEventListener("load", () => {
    navigator.serviceWorker
      .register(new URL("../sw.js", import.meta.url), { scope: "../", updateViaCache: "none" })
      .catch((error) => console.warn(`offline use unavailable: ${error}`));
  });
}
