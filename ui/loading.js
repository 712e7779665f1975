// Loading progress while PyScript boots: follows PyScript's `py:progress` events.
// Python marks the page ready (body[data-ready="1"]); the CSS then hides the bar.
//
// Performance marks for tools/browser_bench.py (the boot's phases, read in the page's own
// timeline): `spades:pyscript-ready` when PyScript's interpreter is ready (Pyodide started and
// app.zip unpacked; PyScript's `onReady` hook), `spades:before-run` when ui/main.py has been
// fetched and is about to run (`onBeforeRun`, `onBeforeRunAsync`); ui/main.py marks the rest (docs/performance.md).
import { hooks } from "../vendor/pyscript/core.js";

const steps = {
  "Loading Pyodide": 5,
  "Loading Storage": 10,
  "Loaded Storage": 15,
  "Loading interpreter": 20,
  "Loaded interpreter": 75,
  "Loading files": 80,
  "Loaded files": 88,
  "Loaded Pyodide": 92,
};
const bar = document.getElementById("boot-progress");
const status = document.getElementById("boot-status");

addEventListener("py:progress", ({ detail }) => {
  if (document.body.dataset.ready) return;
  const value = steps[detail];
  if (bar && value !== undefined) bar.value = Math.max(bar.value, value);
  // over a table painted from the last visit (ui/paint.js) the line keeps its "getting ready"
  if (status && typeof detail === "string" && !document.body.dataset.painted) {
    status.textContent = `${detail}…`;
  }
});

// Only the page's own script (not the bots' workers, which have hooks of their own).
const once = (name) => () => {
  if (!performance.getEntriesByName(name).length) performance.mark(name);
};
hooks.main.onReady.add(once("spades:pyscript-ready"));
// A <script type="py"> runs async unless it says otherwise: either hook, whichever is called.
hooks.main.onBeforeRun.add(once("spades:before-run"));
hooks.main.onBeforeRunAsync.add(once("spades:before-run"));
