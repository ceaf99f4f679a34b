// view.js - Draws the laid-out graph into the SVG element: only what lies in
// the window (a grid index finds it), with less detail when zoomed out, so
// that the cost of a frame depends on the window, not on the graph. Pan by
// dragging, zoom with the wheel (or pinch), click to select, double-click a
// layer to open it.

const CELL = 600; // grid cell of the spatial index, in graph units

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

/** Fits `text` into about `width` pixels of 12px text. */
function clip(text, width) {
  const max = Math.max(3, Math.floor(width / 6.6));
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** A grid over boxes; query returns the items overlapping a rectangle. */
function GridIndex() {
  this.cells = new Map();
  this.big = [];
}
GridIndex.prototype.add = function (item, x0, y0, x1, y1) {
  const cx0 = Math.floor(x0 / CELL), cx1 = Math.floor(x1 / CELL);
  const cy0 = Math.floor(y0 / CELL), cy1 = Math.floor(y1 / CELL);
  if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 64) { this.big.push(item); return; }
  for (let cx = cx0; cx <= cx1; cx++) {
    for (let cy = cy0; cy <= cy1; cy++) {
      const key = cx * 1048576 + cy;
      let cell = this.cells.get(key);
      if (!cell) { cell = []; this.cells.set(key, cell); }
      cell.push(item);
    }
  }
};
GridIndex.prototype.query = function (x0, y0, x1, y1, seen) {
  const out = [];
  const cx0 = Math.floor(x0 / CELL), cx1 = Math.floor(x1 / CELL);
  const cy0 = Math.floor(y0 / CELL), cy1 = Math.floor(y1 / CELL);
  const take = function (item) {
    if (seen[item.index] === seen.stamp) return;
    seen[item.index] = seen.stamp;
    if (item.x1 < x0 || item.x0 > x1 || item.y1 < y0 || item.y0 > y1) return;
    out.push(item);
  };
  if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 40000) {
    // Zoomed out this far, walking the cells costs more than the items.
    return null;
  }
  for (let cx = cx0; cx <= cx1; cx++) {
    for (let cy = cy0; cy <= cy1; cy++) {
      const cell = this.cells.get(cx * 1048576 + cy);
      if (cell) cell.forEach(take);
    }
  }
  this.big.forEach(take);
  return out;
};

/** The path of an edge through its points (smooth between ranks). */
function edgePath(points) {
  let d = "M" + points[0][0].toFixed(1) + "," + points[0][1].toFixed(1);
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    const my = (a[1] + b[1]) / 2;
    d += "C" + a[0].toFixed(1) + "," + my.toFixed(1) + " " + b[0].toFixed(1) + "," +
      my.toFixed(1) + " " + b[0].toFixed(1) + "," + b[1].toFixed(1);
  }
  return d;
}

function View(svg, handlers) {
  this.svg = svg;
  this.viewport = svg.querySelector("#viewport");
  this.edgeLayer = svg.querySelector("#edges");
  this.nodeLayer = svg.querySelector("#nodes");
  this.handlers = handlers;
  this.k = 1; this.tx = 0; this.ty = 0;
  this.dg = null;
  this.pending = false;
  this.classOf = function () { return ""; };
  this.lastCount = 0;
  this.attachEvents();
}

/** Shows a new displayed graph (already laid out) with its bounds. */
View.prototype.setGraph = function (dg, bounds) {
  this.dg = dg;
  this.bounds = bounds;
  this.nodeIndex = new GridIndex();
  this.edgeIndex = new GridIndex();
  dg.nodes.forEach(function (d, i) {
    d.index = i;
    d.x0 = d.x - d.w / 2; d.x1 = d.x + d.w / 2;
    d.y0 = d.y - d.h / 2; d.y1 = d.y + d.h / 2;
    this.nodeIndex.add(d, d.x0, d.y0, d.x1, d.y1);
  }, this);
  dg.edges.forEach(function (e, i) {
    e.index = i;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    e.points.forEach(function (p) {
      x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]);
      y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]);
    });
    e.x0 = x0; e.y0 = y0; e.x1 = x1; e.y1 = y1;
    this.edgeIndex.add(e, x0, y0, x1, y1);
  }, this);
  this.seenNodes = new Uint32Array(dg.nodes.length);
  this.seenNodes.stamp = 0;
  this.seenEdges = new Uint32Array(dg.edges.length);
  this.seenEdges.stamp = 0;
  this.requestRender();
};

View.prototype.size = function () {
  const r = this.svg.getBoundingClientRect();
  return { w: r.width || 800, h: r.height || 600 };
};

View.prototype.fit = function () {
  const b = this.bounds;
  if (!b) return;
  const s = this.size();
  const k = Math.min(s.w / (b.x1 - b.x0), s.h / (b.y1 - b.y0), 1.2);
  // Tall graphs: rather fit the width and start at the top than show dots.
  const kWidth = Math.min(s.w / (b.x1 - b.x0), 1.2);
  this.k = Math.max(k, Math.min(kWidth, 0.55));
  this.tx = (s.w - (b.x1 - b.x0) * this.k) / 2 - b.x0 * this.k;
  this.ty = 10 - b.y0 * this.k;
  if ((b.y1 - b.y0) * this.k < s.h) this.ty = (s.h - (b.y1 - b.y0) * this.k) / 2 - b.y0 * this.k;
  this.requestRender();
};

/** Centers the view on a display node, zooming in to read it. */
View.prototype.centerOn = function (d) {
  const s = this.size();
  this.k = Math.max(this.k, 0.9);
  this.tx = s.w / 2 - d.x * this.k;
  this.ty = s.h / 2 - d.y * this.k;
  this.requestRender();
};

View.prototype.requestRender = function () {
  if (this.pending) return;
  this.pending = true;
  const self = this;
  const run = function () { self.pending = false; self.render(); };
  if (window.requestAnimationFrame && !document.hidden) window.requestAnimationFrame(run);
  else setTimeout(run, 0);
};

/** Draws what is in the window now. */
View.prototype.render = function () {
  this.pending = false;
  const dg = this.dg;
  if (!dg) return;
  this.viewport.setAttribute("transform", "translate(" + this.tx.toFixed(2) + "," + this.ty.toFixed(2) + ") scale(" + this.k.toFixed(5) + ")");
  const s = this.size();
  const margin = 80 / this.k;
  const x0 = -this.tx / this.k - margin, y0 = -this.ty / this.k - margin;
  const x1 = (s.w - this.tx) / this.k + margin, y1 = (s.h - this.ty) / this.k + margin;
  this.seenNodes.stamp++;
  this.seenEdges.stamp++;
  let visible = this.nodeIndex.query(x0, y0, x1, y1, this.seenNodes);
  if (visible === null) {
    visible = dg.nodes.filter(function (d) { return !(d.x1 < x0 || d.x0 > x1 || d.y1 < y0 || d.y0 > y1); });
  }
  let edges = this.edgeIndex.query(x0, y0, x1, y1, this.seenEdges);
  if (edges === null) {
    edges = dg.edges.filter(function (e) { return !(e.x1 < x0 || e.x0 > x1 || e.y1 < y0 || e.y0 > y1); });
  }
  const detail = this.k >= 0.45 ? 2 : this.k >= 0.16 ? 1 : 0;
  const classOf = this.classOf;

  const ep = [];
  const showEdges = detail > 0 || edges.length < 6000;
  if (showEdges) {
    edges.forEach(function (e) {
      const cast = e.casts.length > 0;
      const dim = classOf(dg.nodes[e.from]).indexOf("dim") >= 0 && classOf(dg.nodes[e.to]).indexOf("dim") >= 0;
      ep.push('<path class="edge' + (cast ? " cast" : "") + (dim ? " dim" : "") + '" d="' + edgePath(e.points) + '" data-e="' + e.index + '"/>');
      if (detail > 0) {
        const end = e.points[e.points.length - 1];
        ep.push('<path class="arrow' + (cast ? " cast" : "") + '" d="M' + (end[0] - 4).toFixed(1) + "," + (end[1] - 7).toFixed(1) + "L" + (end[0] + 4).toFixed(1) + "," + (end[1] - 7).toFixed(1) + "L" + end[0].toFixed(1) + "," + end[1].toFixed(1) + 'Z"/>');
      }
      if (cast && detail > 0) {
        // The mark: a diamond in the middle of the edge's first span.
        const a = e.points[0], b = e.points[1];
        const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
        ep.push('<path class="cast-mark" data-e="' + e.index + '" d="M' + mx.toFixed(1) + "," + (my - 6).toFixed(1) + "l6,6l-6,6l-6,-6Z\"/>");
        if (detail > 1) {
          ep.push('<text class="cast-label" x="' + (mx + 9).toFixed(1) + '" y="' + (my + 4).toFixed(1) + '">' +
            escapeHtml(e.casts.join(", ").replace(/->/g, "→") + " · " + formatBytes(e.bytes)) + "</text>");
        }
      }
    });
  }
  this.edgeLayer.innerHTML = ep.join("");

  const np = [];
  visible.forEach(function (d) {
    const cls = classOf(d);
    np.push(nodeMarkup(d, cls, detail));
  });
  if (this.bounds && this.bounds.titles && detail > 0) {
    this.bounds.titles.forEach(function (t) {
      np.push('<text class="fn-title" x="' + t.x + '" y="' + t.y + '">@' + escapeHtml(t.name) + "</text>");
    });
  }
  this.nodeLayer.innerHTML = np.join("");
  this.lastCount = visible.length;
  if (this.handlers.rendered) this.handlers.rendered(visible.length, edges.length);
};

/** The SVG of one display node. */
function nodeMarkup(d, cls, detail) {
  const x = (d.x - d.w / 2).toFixed(1), y = (d.y - d.h / 2).toFixed(1);
  let s = '<g class="node ' + cls + '" data-k="' + d.index + '" transform="translate(' + x + "," + y + ')">';
  if (d.kind === "layer") {
    const l = d.layer;
    s += '<rect class="body" width="' + d.w + '" height="' + d.h + '" rx="6"/>';
    // The ops' precisions, as a stacked bar along the bottom.
    let offset = 6;
    const total = l.members.length || 1;
    PRECISIONS.forEach(function (p) {
      const n = l.counts[p] || 0;
      if (!n) return;
      const w = (d.w - 12) * n / total;
      s += '<rect class="seg" x="' + offset.toFixed(1) + '" y="' + (d.h - 13) + '" width="' + w.toFixed(1) + '" height="7" style="fill:var(--' + p + ')"/>';
      offset += w;
    });
    s += '<rect class="band" width="6" height="' + d.h + '" rx="2"/>';
    if (detail > 0) {
      s += '<text x="12" y="16">' + escapeHtml(clip(l.name, d.w - 60)) + '</text>';
      s += '<text class="t2" x="12" y="30">' + l.members.length + " op" + (l.members.length === 1 ? "" : "s") + " · " + escapeHtml(l.kind) + "</text>";
      s += '<text x="' + (d.w - 16) + '" y="17" class="t2">⊞</text>';
    }
  } else if (d.kind === "op") {
    const n = d.node;
    s += '<rect class="body" width="' + d.w + '" height="' + d.h + '" rx="4"/>';
    s += '<rect class="band" width="6" height="' + d.h + '" rx="2"/>';
    if (detail > 0) {
      s += '<text x="12" y="16">' + escapeHtml(clip(n.label, d.w - 18)) + "</text>";
      if (detail > 1) s += '<text class="t2" x="12" y="31">' + escapeHtml(clip(precisionLine(n.op), d.w - 18)) + "</text>";
      if (detail > 1 && n.op.range) s += '<text class="range-tag" x="' + (d.w - 5) + '" y="13">range</text>';
    }
  } else {
    s += '<rect class="body" width="' + d.w + '" height="' + d.h + '" rx="15"/>';
    if (detail > 0) {
      s += '<text x="12" y="19">' + escapeHtml(clip((d.kind === "input" ? "in " : "out ") + d.node.label, d.w - 18)) + "</text>";
    }
  }
  return s + "</g>";
}

View.prototype.attachEvents = function () {
  const self = this, svg = this.svg;
  let drag = null;
  const pointers = new Map();
  svg.addEventListener("pointerdown", function (ev) {
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    drag = { x: ev.clientX, y: ev.clientY, tx: self.tx, ty: self.ty, moved: false };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener("pointermove", function (ev) {
    if (pointers.size === 2 && pointers.has(ev.pointerId)) {
      // Pinch: zoom by the change of the distance between two fingers.
      const others = Array.from(pointers.entries()).filter(function (p) { return p[0] !== ev.pointerId; });
      const o = others[0][1], old = pointers.get(ev.pointerId);
      const before = Math.hypot(old[0] - o[0], old[1] - o[1]);
      const after = Math.hypot(ev.clientX - o[0], ev.clientY - o[1]);
      pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (before > 0) self.zoomAt((ev.clientX + o[0]) / 2, (ev.clientY + o[1]) / 2, after / before);
      if (drag) drag.moved = true;
      return;
    }
    if (!drag) { self.hover(ev); return; }
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) {
      svg.classList.add("panning");
      self.tx = drag.tx + dx;
      self.ty = drag.ty + dy;
      self.requestRender();
    }
  });
  const end = function (ev) {
    pointers.delete(ev.pointerId);
    svg.classList.remove("panning");
    if (drag && !drag.moved && ev.type === "pointerup") self.click(ev);
    drag = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("pointerleave", function () { self.handlers.hover(null); });
  svg.addEventListener("dblclick", function (ev) {
    const d = self.targetNode(ev);
    if (d && self.handlers.open) self.handlers.open(d);
  });
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    const factor = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015));
    self.zoomAt(ev.clientX, ev.clientY, factor);
  }, { passive: false });
  window.addEventListener("resize", function () { self.requestRender(); });
};

View.prototype.zoomAt = function (clientX, clientY, factor) {
  const r = this.svg.getBoundingClientRect();
  const px = clientX - r.left, py = clientY - r.top;
  const k = Math.min(4, Math.max(0.005, this.k * factor));
  const gx = (px - this.tx) / this.k, gy = (py - this.ty) / this.k;
  this.k = k;
  this.tx = px - gx * k;
  this.ty = py - gy * k;
  this.requestRender();
};

View.prototype.targetNode = function (ev) {
  const el = ev.target.closest ? ev.target.closest("[data-k]") : null;
  return el && this.dg ? this.dg.nodes[Number(el.getAttribute("data-k"))] : null;
};

View.prototype.targetEdge = function (ev) {
  const el = ev.target.closest ? ev.target.closest("[data-e]") : null;
  return el && this.dg ? this.dg.edges[Number(el.getAttribute("data-e"))] : null;
};

View.prototype.click = function (ev) {
  const d = this.targetNode(ev);
  if (d) { this.handlers.select(d); return; }
  const e = this.targetEdge(ev);
  if (e) this.handlers.selectEdge(e);
};

View.prototype.hover = function (ev) {
  const d = this.targetNode(ev);
  const e = d ? null : this.targetEdge(ev);
  this.handlers.hover(d || e ? { node: d, edge: e, x: ev.clientX, y: ev.clientY } : null);
};

/**
 * The overview in the corner: every displayed node as a dot in its fill
 * color, and the window as a rectangle; clicking or dragging in it moves
 * the window there.
 */
function Minimap(box, view) {
  this.box = box;
  this.canvas = box.querySelector("canvas");
  this.frame = box.querySelector("#minimap-view");
  this.view = view;
  this.scale = 1;
  const self = this;
  let dragging = false;
  const move = function (ev) {
    const r = self.canvas.getBoundingClientRect();
    const b = self.view.bounds;
    if (!b) return;
    const gx = b.x0 + (ev.clientX - r.left - self.ox) / self.scale;
    const gy = b.y0 + (ev.clientY - r.top - self.oy) / self.scale;
    const s = self.view.size();
    self.view.tx = s.w / 2 - gx * self.view.k;
    self.view.ty = s.h / 2 - gy * self.view.k;
    self.view.requestRender();
  };
  box.addEventListener("pointerdown", function (ev) {
    dragging = true;
    box.setPointerCapture(ev.pointerId);
    move(ev);
    ev.stopPropagation();
  });
  box.addEventListener("pointermove", function (ev) { if (dragging) move(ev); });
  box.addEventListener("pointerup", function () { dragging = false; });
  box.addEventListener("wheel", function (ev) { ev.stopPropagation(); }, { passive: true });
}

/** Draws the nodes of the view's graph, `colorOf(d)` giving each a color. */
Minimap.prototype.draw = function (colorOf) {
  const dg = this.view.dg, b = this.view.bounds;
  if (!dg || !b) return;
  const w = this.box.clientWidth, h = this.box.clientHeight;
  const ratio = window.devicePixelRatio || 1;
  this.canvas.width = Math.round(w * ratio);
  this.canvas.height = Math.round(h * ratio);
  this.canvas.style.width = w + "px";
  this.canvas.style.height = h + "px";
  const ctx = this.canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const gw = b.x1 - b.x0, gh = b.y1 - b.y0;
  this.scale = Math.min((w - 8) / gw, (h - 8) / gh);
  this.ox = (w - gw * this.scale) / 2;
  this.oy = (h - gh * this.scale) / 2;
  const s = this.scale, ox = this.ox, oy = this.oy;
  dg.nodes.forEach(function (d) {
    ctx.fillStyle = colorOf(d);
    ctx.fillRect(ox + (d.x0 - b.x0) * s, oy + (d.y0 - b.y0) * s, Math.max(1.5, d.w * s), Math.max(1.5, d.h * s));
  });
  this.update();
};

/** Moves the window's rectangle to where the view is. */
Minimap.prototype.update = function () {
  const b = this.view.bounds;
  if (!b) return;
  const v = this.view, size = v.size(), s = this.scale;
  const x0 = (-v.tx / v.k - b.x0) * s + this.ox, y0 = (-v.ty / v.k - b.y0) * s + this.oy;
  const x1 = ((size.w - v.tx) / v.k - b.x0) * s + this.ox, y1 = ((size.h - v.ty) / v.k - b.y0) * s + this.oy;
  // Hidden while the whole graph is in the window.
  const whole = -v.tx / v.k <= b.x0 && -v.ty / v.k <= b.y0 &&
    (size.w - v.tx) / v.k >= b.x1 && (size.h - v.ty) / v.k >= b.y1;
  this.box.style.visibility = whole ? "hidden" : "visible";
  const w = this.box.clientWidth, h = this.box.clientHeight;
  const cx0 = Math.max(0, x0), cy0 = Math.max(0, y0), cx1 = Math.min(w, x1), cy1 = Math.min(h, y1);
  this.frame.style.left = cx0 + "px";
  this.frame.style.top = cy0 + "px";
  this.frame.style.width = Math.max(2, cx1 - cx0) + "px";
  this.frame.style.height = Math.max(2, cy1 - cy0) + "px";
};
