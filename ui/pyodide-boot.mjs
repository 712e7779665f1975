// Pyodide started from a memory snapshot when there is one (the default build's boot; a site
// built with `python3 tools/build_web.py --no-snapshot`, or where Node could not make the
// snapshot, does without this file; see docs/performance.md). PyScript imports the module named by pyscript.toml's `interpreter` and
// calls its `loadPyodide(options)`: this module is that module, in front of Pyodide's own.
//
// The snapshot (vendor/pyodide/snapshot-<key>.zip: one deflated entry, Pyodide's
// makeMemorySnapshot() of an interpreter that has just started, made by tools/build_web.py
// with the same Pyodide files; the site's copy of this file names it with its key, a hash of
// those files, so that no other build's snapshot is ever taken from the caches; this copy's
// "snapshot.zip" is only a placeholder) is used only when it is already in the service
// worker's cache (a repeat visit, or a worker started after the service worker has installed):
// a first visit never waits for its download and boots as without it.
// Whatever goes wrong (no cache, no snapshot, a corrupt or stale one, a refusal by Pyodide),
// the interpreter starts as it always did.
import { loadPyodide as loadPlain, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const SNAPSHOT_URL = new URL("snapshot.zip", INDEX_URL).href;

// "spades:snapshot-used", "spades:snapshot-refused": how this interpreter started, read by the
// benchmark and the browser tests (tests/browser/conftest.py's check_boot).
const mark = (name) => {
  try { performance.mark(name); } catch (error) { /* marks are only for measuring and tests */ }
};

// The entry's bytes of a zip holding one deflated entry (sizes in its local header).
async function unzipOne(buffer) {
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== 0x04034b50 || view.getUint16(8, true) !== 8) {
    throw new Error("not a zip of one deflated entry");
  }
  const size = view.getUint32(18, true);
  const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const stream = new Blob([new Uint8Array(buffer, start, size)]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function cachedSnapshot() {
  if (typeof caches === "undefined" || typeof DecompressionStream === "undefined") return null;
  const response = await caches.match(SNAPSHOT_URL, { ignoreVary: true });
  if (!response || !response.ok) return null;
  return unzipOne(await response.arrayBuffer());
}

export async function loadPyodide(options = {}) {
  const plain = { ...options, indexURL: INDEX_URL };
  let snapshot = null;
  try {
    snapshot = await cachedSnapshot();
  } catch (error) {
    console.warn(`Pyodide snapshot not used: ${error}`);
  }
  if (snapshot) {
    try {
      const pyodide = await loadPlain({ ...plain, _loadSnapshot: snapshot });
      // The snapshot holds one random state for every visit: seed it afresh, as a start does.
      pyodide.runPython("import random as _r; _r.seed(); del _r");
      mark("spades:snapshot-used");
      return pyodide;
    } catch (error) {
      console.warn(`Pyodide snapshot refused, starting without it: ${error}`);
      mark("spades:snapshot-refused");
    }
  }
  return loadPlain(plain);
}
