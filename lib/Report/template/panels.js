// panels.js - The panels around the graph: the summary of the conversion,
// the legend, the filters, the details of the selected op, layer or edge,
// the search results, amp-tune's error chart, and the tooltip.

function el(id) { return document.getElementById(id); }

function row(name, value, numeric) {
  return "<tr><th>" + escapeHtml(name) + "</th><td" + (numeric ? ' class="num"' : "") + ">" + value + "</td></tr>";
}

function badge(kind, text) {
  return '<span class="badge ' + kind + '">' + escapeHtml(text) + "</span>";
}

function nodeLink(model, id) {
  const n = model.nodes[id];
  const text = n.kind === "op" ? n.label : (n.kind === "input" ? "input " : "output ") + n.label;
  return '<a class="node-link" data-node="' + id + '">' + escapeHtml(text) + "</a>";
}

/** The bar of precisions over `counts` ({fp32: n, ...}). */
function precisionStack(counts) {
  let total = 0;
  PRECISIONS.forEach(function (p) { total += counts[p] || 0; });
  if (!total) return "";
  let s = '<div class="stack" title="' + PRECISIONS.filter(function (p) { return counts[p]; }).map(function (p) {
    return PRECISION_NAMES[p] + ": " + counts[p];
  }).join(", ") + '">';
  PRECISIONS.forEach(function (p) {
    if (counts[p]) s += '<span style="width:' + (100 * counts[p] / total).toFixed(2) + "%;background:var(--" + p + ')"></span>';
  });
  return s + "</div>";
}

function renderSummary(model) {
  const doc = model.doc, t = model.report.totals || {};
  const counts = {};
  let castEdges = 0;
  model.nodes.forEach(function (n) { if (n.kind === "op") counts[n.prec] = (counts[n.prec] || 0) + 1; });
  model.edges.forEach(function (e) { if (e.casts) castEdges++; });
  let h = "<h2>Conversion</h2><table class=\"kv\">";
  h += row("model", "<code>" + escapeHtml(doc.title || "") + "</code>");
  h += row("by", escapeHtml(doc.tool || "amp"));
  h += row("target type", "<code>" + escapeHtml(model.report.target || "?") + "</code>");
  h += "</table>" + precisionStack(counts) + '<table class="kv">';
  h += row("ops", String(t.ops !== undefined ? t.ops : model.opCount), true);
  h += row("green: 16-bit inputs", String(t.green || 0), true);
  h += row("gray in 16 bits", String(t.gray_low || 0), true);
  h += row("gray kept in FP32", String(t.gray_fp32 || 0), true);
  h += row("red: FP32", String(t.red || 0), true);
  if (t.unknown) h += row("without a color of their own", String(t.unknown), true);
  h += row("converted", String(t.converted || 0), true);
  h += row("casts inserted", String(t.casts_inserted || 0), true);
  h += row("cast bytes", formatBytes(t.cast_bytes), true);
  h += row("edges with casts", String(castEdges), true);
  h += row("gray ops' bytes", formatBytes(t.gray_bytes), true);
  if (t.red_bytes !== undefined)
    h += row("red ops' bytes", formatBytes(t.red_bytes), true);
  const before = t.constant_bytes_before, after = t.constant_bytes_after;
  let constants = formatBytes(before) + " → " + formatBytes(after);
  if (before > 0) constants += " (" + (100 * (before - after) / before).toFixed(0) + "% less)";
  h += row("constants", constants, true);
  h += row("constants folded", String(t.constants_folded || 0), true);
  if (t.weight_only) {
    h += row("weight-only contractions", String(t.weight_only), true);
    h += row("their weights", formatBytes(t.weight_bytes_16) + " in 16 bits → " + formatBytes(t.weight_bytes) +
      " (" + (t.weight_bytes_16 ? (t.weight_bytes / t.weight_bytes_16).toFixed(2) + "x" : "-") + ")", true);
  }
  if (t.constants_out_of_range) h += row("constants out of range", String(t.constants_out_of_range), true);
  h += "</table>";
  const unmatched = (doc.graph || {}).unmatched || 0;
  if (unmatched) h += '<p class="hint">' + unmatched + " op" + (unmatched === 1 ? " was" : "s were") + " not found in the converted module: shown without edges.</p>";
  el("summary").innerHTML = h;
}

function renderLegend() {
  let h = "<h2>Marks</h2>";
  const fill = function (p, text) {
    return '<div class="legend-row"><span class="swatch" style="background:var(--' + p + ')"></span>' + text + "</div>";
  };
  h += fill("fp32", "computes in FP32");
  h += fill("f16", "computes in f16");
  h += fill("bf16", "computes in bf16");
  h += fill("fp8", "computes in FP8");
  h += fill("other", "types amp does not convert");
  const band = function (c, text) {
    return '<div class="legend-row"><span class="swatch" style="background:var(--' + c + ');width:6px"></span>' + text + "</div>";
  };
  h += band("green", "green: a contraction (16-bit inputs, wide accumulator)");
  h += band("gray", "gray: follows its neighbours");
  h += band("red", "red: kept in FP32 (numerically risky, or by request)");
  h += '<div class="legend-row"><span class="swatch" style="background:none;border:none;width:34px;color:#6741d9;font-size:10px;font-weight:600;margin-right:6px">range</span>a value range decided (see its details)</div>';
  h += '<div class="legend-row"><svg width="34" height="14"><path class="edge cast" d="M1,7H33"/><path class="cast-mark" d="M17,1l6,6l-6,6l-6,-6Z"/></svg>an edge through casts (types, bytes)</div>';
  h += '<div class="legend-row"><svg width="34" height="14"><rect x="1" y="1" width="32" height="12" rx="3" style="fill:#fff;stroke:#39424c;stroke-width:1.5"/><rect x="4" y="8" width="26" height="3" style="fill:var(--f16)"/></svg>a collapsed layer (its ops\' precisions)</div>';
  el("legend").innerHTML = h;
}

function renderFilters(model, filters, changed) {
  let h = "<h2>Show</h2>";
  const present = {};
  model.nodes.forEach(function (n) { if (n.kind === "op") present[n.prec] = true; });
  h += '<div class="filter-group">';
  CLASSES.forEach(function (c) {
    h += '<label><input type="checkbox" data-filter="cls" value="' + c + '"' + (filters.cls[c] ? " checked" : "") + "> " + c + "</label>";
  });
  h += '</div><div class="filter-group">';
  PRECISIONS.forEach(function (p) {
    if (!present[p]) return;
    h += '<label><input type="checkbox" data-filter="prec" value="' + p + '"' + (filters.prec[p] ? " checked" : "") + "> " + PRECISION_NAMES[p] + "</label>";
  });
  h += '</div><div class="filter-group"><label><input type="checkbox" data-filter="casts"' + (filters.castsOnly ? " checked" : "") + "> only ops next to casts</label></div>";
  el("filters").innerHTML = h;
  el("filters").onchange = function (ev) {
    const input = ev.target;
    const kind = input.getAttribute("data-filter");
    if (kind === "cls") filters.cls[input.value] = input.checked;
    else if (kind === "prec") filters.prec[input.value] = input.checked;
    else if (kind === "casts") filters.castsOnly = input.checked;
    changed();
  };
}

/** The rows that describe a report op. */
function opRows(model, n) {
  const op = n.op;
  let h = '<table class="kv">';
  h += row("function", "<code>@" + escapeHtml(op.function) + "</code>");
  if (n.layer >= 0) h += row("layer", '<a class="node-link" data-layer="' + n.layer + '">' + escapeHtml(model.layers[n.layer].name) + "</a>");
  h += row("location", "<code>" + escapeHtml(op.loc) + "</code>");
  h += row("reason", escapeHtml(op.reason));
  h += row("converted", op.converted ? "yes" : "no");
  if (op.converted) {
    h += row("computes in", "<code>" + escapeHtml(op.compute) + "</code>");
    h += row("accumulates in", "<code>" + escapeHtml(op.accumulate) + "</code>");
    h += row("writes", "<code>" + escapeHtml(op.output) + "</code>");
  }
  if (op.types) h += row("types", "<code>" + escapeHtml(op.types) + "</code>");
  if (op.weights) {
    const w = op.weights;
    h += row("weights", "<code>" + escapeHtml(w.format) + "</code>" + (w.converted ? "" : " asked for, not applied"));
    if (w.converted)
      h += row("weight bytes", formatBytes(w.bytes_f32) + " in f32, " + formatBytes(w.bytes_16) + " in " +
        escapeHtml(w.activations) + " → " + formatBytes(w.bytes) + " (scales in " + escapeHtml(w.scales) + ")");
  }
  if (op.range) {
    const r = op.range;
    h += row("range", "[" + formatNumber(r.lo) + ", " + formatNumber(r.hi) + "] leaves <code>" + escapeHtml(r.type) + "</code>" +
      (r.margin !== undefined ? " (margin " + formatNumber(r.margin) + ")" : ""));
  }
  const t = model.tuneOf.get(n.id);
  if (t) {
    h += row("amp-tune error", formatNumber(t.error));
    h += row("error it adds", formatNumber(t.sensitivity));
    h += row("amp-tune", t.kept_fp32 ? "kept in FP32" : "left in 16 bits");
  }
  h += "</table>";
  if (op.range && op.range.why) h += '<p class="why">' + escapeHtml(op.range.why) + "</p>";
  if (op.weights && op.weights.why) h += '<p class="why">' + escapeHtml(op.weights.why) + "</p>";
  if (op.source) h += '<code class="source">' + escapeHtml(op.source) + "</code>";
  return h;
}

function edgeList(model, edges, other) {
  if (!edges.length) return "<p class=\"hint\">none</p>";
  let h = '<ul class="links">';
  edges.slice(0, 200).forEach(function (e) {
    h += "<li>" + nodeLink(model, other(e));
    if (e.casts) h += " " + badge("cast", e.casts.replace(/->/g, "→") + " · " + formatBytes(e.bytes));
    h += "</li>";
  });
  if (edges.length > 200) h += "<li>… " + (edges.length - 200) + " more</li>";
  return h + "</ul>";
}

function renderNodeDetails(model, n) {
  let h;
  if (n.kind === "op") {
    h = "<h3>" + escapeHtml(n.op.op) + "</h3><p>" + badge("cls-" + n.cls, n.cls) + " " + badge("prec-" + n.prec, PRECISION_NAMES[n.prec]) + "</p>";
    h += opRows(model, n);
  } else {
    h = "<h3>" + escapeHtml((n.kind === "input" ? "input " : "output ") + n.label) + "</h3><table class=\"kv\">";
    h += row("function", "<code>@" + escapeHtml(n.fn) + "</code>");
    h += row("type", "<code>" + escapeHtml(n.io.type) + "</code>");
    h += "</table>";
  }
  h += "<h2>Reads</h2>" + edgeList(model, n.ins, function (e) { return e.from; });
  h += "<h2>Read by</h2>" + edgeList(model, n.outs, function (e) { return e.to; });
  el("details").innerHTML = h;
}

function renderLayerDetails(model, layer, collapsed) {
  let h = "<h3>" + escapeHtml(layer.name) + " (" + escapeHtml(layer.kind) + ")</h3>";
  h += "<p>" + badge("cls-" + layer.cls, "head: " + layer.cls) + " " + layer.members.length + " ops in <code>@" + escapeHtml(layer.fn) + "</code></p>";
  h += precisionStack(layer.counts);
  h += '<p><button type="button" data-toggle-layer="' + layer.id + '">' + (collapsed ? "Open the layer" : "Collapse the layer") + "</button></p>";
  h += '<h2>Ops</h2><ul class="links">';
  layer.members.slice(0, 300).forEach(function (id) {
    const n = model.nodes[id];
    h += "<li>" + nodeLink(model, id) + " " + badge("prec-" + n.prec, PRECISION_NAMES[n.prec]) + "</li>";
  });
  if (layer.members.length > 300) h += "<li>… " + (layer.members.length - 300) + " more</li>";
  el("details").innerHTML = h + "</ul>";
}

function renderEdgeDetails(model, de, dg) {
  const describe = function (d) {
    return d.kind === "layer" ? escapeHtml(d.layer.name) + " (layer)" : nodeLink(model, d.node.id);
  };
  let h = "<h3>Edge</h3><table class=\"kv\">";
  h += row("from", describe(dg.nodes[de.from]));
  h += row("to", describe(dg.nodes[de.to]));
  h += row("values", String(de.count), true);
  if (de.casts.length) {
    h += row("casts", de.casts.map(function (c) { return "<code>" + escapeHtml(c.replace(/->/g, "→")) + "</code>"; }).join(", "));
    h += row("cast bytes", formatBytes(de.bytes), true);
  }
  el("details").innerHTML = h + "</table>";
}

/** The search results list; `current` is the index of the current hit. */
function renderResults(model, hits, current, query) {
  const list = el("search-results");
  el("search-count").textContent = query ? hits.length + " op" + (hits.length === 1 ? "" : "s") : "";
  document.body.setAttribute("data-search-hits", String(hits.length));
  let h = "";
  hits.slice(0, 200).forEach(function (id, i) {
    const n = model.nodes[id];
    h += '<li data-node="' + id + '"' + (i === current ? ' class="current"' : "") + ">" + escapeHtml(n.op ? n.op.op : n.label) +
      (n.op ? '<span class="loc">' + escapeHtml(n.op.loc) + "</span>" : "") + "</li>";
  });
  if (hits.length > 200) h += "<li>… " + (hits.length - 200) + " more</li>";
  list.innerHTML = h;
}

/** The bounds of a tolerance string that the chart can draw ("rel_l2=1e-3"). */
function parseTolerance(text) {
  const out = {};
  String(text || "").split(",").forEach(function (part) {
    const kv = part.split("=");
    if (kv.length === 2 && !isNaN(Number(kv[1]))) out[kv[0].trim()] = Number(kv[1]);
  });
  return out;
}

/**
 * amp-tune's chart: one bar per op that could run in 16 bits, the error it
 * adds (relative L2, log scale), most first; red bars were kept in FP32;
 * the dashed line is the rel_l2 tolerance.
 */
function renderTune(model, select) {
  const tune = model.doc.tune;
  const box = el("tune");
  if (!tune) { box.innerHTML = ""; return; }
  const ops = (tune.ops || []).slice();
  const bounds = parseTolerance(tune.tolerance);
  let h = "<h2>amp-tune</h2><table class=\"kv\">";
  h += row("tolerance", "<code>" + escapeHtml(tune.tolerance || "") + "</code>");
  h += row("samples", String(tune.samples || 0), true);
  h += row("candidates", String(tune.candidates || ops.length), true);
  h += row("kept in FP32", String(tune.kept_fp32 || 0), true);
  h += row("in 16 bits", String(tune.ops_16bit || 0), true);
  if (tune.fp8_ops && tune.fp8_ops.length) {
    const moved = tune.fp8_ops.filter(function (t) { return t.moved_to_16bit; }).length;
    h += row("contractions in FP8", String(tune.fp8_ops.length - moved) + " of " + String(tune.fp8_ops.length), true);
  }
  if (tune.share_macs && tune.macs && tune.macs.total) {
    const parts = Object.keys(tune.share_macs).filter(function (k) { return tune.share_macs[k] !== null; }).map(function (k) {
      return escapeHtml(k) + " " + (100 * tune.share_macs[k]).toFixed(1) + "%";
    });
    h += row("multiply-adds", parts.join(", "));
  }
  if (tune.result_rel_l2 !== undefined) h += row("rel_l2 of the result", formatNumber(tune.result_rel_l2), true);
  h += "</table>";
  const finite = ops.filter(function (t) { return t.sensitivity !== null && t.sensitivity > 0; }).map(function (t) { return t.sensitivity; });
  let lo = finite.length ? Math.min.apply(null, finite) : 1e-6, hi = finite.length ? Math.max.apply(null, finite) : 1;
  if (bounds.rel_l2 > 0) { lo = Math.min(lo, bounds.rel_l2); hi = Math.max(hi, bounds.rel_l2); }
  lo = Math.pow(10, Math.floor(Math.log10(lo)));
  hi = Math.pow(10, Math.ceil(Math.log10(hi)));
  if (hi <= lo) hi = lo * 10;
  const barW = ops.length > 80 ? 3 : ops.length > 30 ? 6 : 12;
  const chartH = 150, top = 14, left = 34, plotH = chartH - top - 20;
  const width = Math.max(260, left + ops.length * (barW + 1) + 8);
  const yOf = function (v) {
    if (v === null || v === undefined) return top;
    if (v <= lo) return top + plotH;
    return top + plotH * (1 - (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)));
  };
  let svg = '<svg width="' + width + '" height="' + chartH + '">';
  for (let e = Math.log10(lo); e <= Math.log10(hi) + 1e-9; e++) {
    const y = yOf(Math.pow(10, e));
    svg += '<line class="axis" x1="' + left + '" x2="' + width + '" y1="' + y.toFixed(1) + '" y2="' + y.toFixed(1) + '" stroke-opacity=".35"/>';
    svg += '<text class="axis-label" x="2" y="' + (y + 3).toFixed(1) + '">1e' + Math.round(e) + "</text>";
  }
  ops.forEach(function (t, i) {
    const x = left + i * (barW + 1);
    const y = yOf(t.sensitivity);
    const cls = (t.kept_fp32 ? "kept" : "low") + (t.sensitivity === null ? " inf" : "");
    svg += '<rect class="bar ' + cls + '" data-tune="' + i + '" x="' + x + '" y="' + y.toFixed(1) + '" width="' + barW + '" height="' + Math.max(1, top + plotH - y).toFixed(1) + '"><title>' +
      escapeHtml(t.op + " at " + t.loc + ": adds rel_l2 " + formatNumber(t.sensitivity) + (t.kept_fp32 ? " (kept in FP32)" : "")) + "</title></rect>";
  });
  if (bounds.rel_l2 > 0) {
    const y = yOf(bounds.rel_l2);
    svg += '<line class="tol-line" x1="' + left + '" x2="' + width + '" y1="' + y.toFixed(1) + '" y2="' + y.toFixed(1) + '"/>';
    svg += '<text class="axis-label" x="' + (left + 4) + '" y="' + (y - 3).toFixed(1) + '" fill="#e03131">tolerance rel_l2=' + formatNumber(bounds.rel_l2) + "</text>";
  }
  svg += '<line class="axis" x1="' + left + '" x2="' + width + '" y1="' + (top + plotH) + '" y2="' + (top + plotH) + '"/></svg>';
  h += '<div id="tune-chart">' + svg + "</div>";
  h += '<p class="hint">The error each op adds in 16 bits (relative L2 of its result less its inputs\'), most first. ' +
    'Red: kept in FP32; green: left in 16 bits; a violet outline and a full bar: not finite. ' +
    (bounds.rel_l2 > 0 ? "Dashed: the rel_l2 tolerance." : "The tolerance has no rel_l2 bound to draw.") + "</p>";
  box.innerHTML = h;
  box.onclick = function (ev) {
    const bar = ev.target.closest("[data-tune]");
    if (!bar) return;
    const t = ops[Number(bar.getAttribute("data-tune"))];
    if (t && t.node !== undefined) select(t.node);
  };
}

function showTooltip(model, info, dg) {
  const tip = el("tooltip");
  if (!info) { tip.hidden = true; return; }
  let h = "";
  if (info.node) {
    const d = info.node;
    if (d.kind === "layer") {
      h = "<b>" + escapeHtml(d.layer.name) + "</b> <span class=\"dim\">" + d.layer.members.length + " ops, double-click to open</span>";
    } else if (d.kind === "op") {
      const op = d.node.op;
      h = "<b>" + escapeHtml(op.op) + "</b><br>" + escapeHtml(op.color + " · " + PRECISION_NAMES[d.node.prec] + " · " + op.reason) +
        '<br><span class="dim">' + escapeHtml(op.loc) + "</span>";
      if (op.range && op.range.why) h += "<br>" + escapeHtml(op.range.why);
    } else {
      h = "<b>" + escapeHtml(d.kind + " " + d.node.label) + "</b><br><span class=\"dim\">" + escapeHtml(d.node.io.type) + "</span>";
    }
  } else if (info.edge) {
    const e = info.edge;
    h = e.casts.length ? "<b>casts</b> " + escapeHtml(e.casts.join(", ").replace(/->/g, "→")) + "<br>" + formatBytes(e.bytes) + " read and written" : e.count + " value" + (e.count === 1 ? "" : "s");
  }
  const box = el("canvas").getBoundingClientRect();
  tip.innerHTML = h;
  tip.hidden = false;
  tip.style.left = Math.min(info.x - box.left + 14, box.width - 280) + "px";
  tip.style.top = (info.y - box.top + 14) + "px";
}
