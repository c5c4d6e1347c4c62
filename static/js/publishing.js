// The publishing page reloads itself every second, but a reload can be slow on a busy
// server: between reloads the seconds shown keep counting, so the page never sits at a
// stale "0 s" while the job goes on.
(() => {
  const shown = document.querySelectorAll("[data-seconds]");
  const began = performance.now();
  setInterval(() => {
    const extra = Math.floor((performance.now() - began) / 1000);
    for (const span of shown) span.textContent = String(Number(span.dataset.seconds) + extra);
  }, 1000);
})();
