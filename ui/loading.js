// Loading progress while PyScript boots: follows PyScript's `py:progress` events.
// Python marks the page ready (body[data-ready="1"]); the CSS then hides the bar.
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
  if (status && typeof detail === "string") status.textContent = `${detail}…`;
});
