// Click-to-zoom for the flame graphs; the page reads the same without it.
document.querySelectorAll("svg.flamegraph").forEach(function (svg) {
  var W = svg.viewBox.baseVal.width, frames = svg.querySelectorAll("g.fr");
  function zoom(x0, w0, d0) {
    frames.forEach(function (g) {
      var x = +g.dataset.x, w = +g.dataset.w, d = +g.dataset.d;
      var nx = (x - x0) / w0 * W, nw = w / w0 * W;
      if (d < d0) { nx = Math.max(nx, 0); nw = Math.min(x + w, x0 + w0) - Math.max(x, x0); nw = nw / w0 * W; }
      var r = g.querySelector("rect"), t = g.querySelector("text");
      var show = nx < W && nx + nw > 0 && nw >= 0.5;
      g.style.display = show ? "" : "none";
      if (!show) return;
      r.setAttribute("x", nx); r.setAttribute("width", Math.max(nw - 0.5, 0.3));
      t.setAttribute("x", nx + 3);
      var n = Math.floor((nw - 6) / 6.6), s = g.dataset.n;
      t.textContent = n < 3 ? "" : (s.length <= n ? s : s.slice(0, n - 1) + "\u2026");
    });
  }
  frames.forEach(function (g) {
    g.addEventListener("click", function () { zoom(+g.dataset.x, +g.dataset.w, +g.dataset.d); });
  });
});
