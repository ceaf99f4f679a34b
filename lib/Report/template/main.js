// main.js - Ties the page together: reads the report, keeps the state
// (collapsed layers, filters, search hits, selection) and redraws what a
// change affects.
//
// The address's fragment can set the starting state, for links and for
// headless browsers: #search=TEXT (search, select the first hit),
// #expand=all or #collapse=all.

const started = (window.performance && performance.now) ? performance.now() : Date.now();

function now() { return (window.performance && performance.now) ? performance.now() : Date.now(); }

function readDocument() {
  const text = el("amp-report-data").textContent;
  try {
    return JSON.parse(text);
  } catch (err) {
    el("details").textContent = "The report's data does not parse: " + err;
    return { report: { ops: [] }, graph: {} };
  }
}

function main() {
  const doc = readDocument();
  const model = buildModel(doc);
  const state = {
    collapsed: new Set(),
    filters: { cls: { green: true, gray: true, red: true }, prec: {}, castsOnly: false },
    hits: [], hitSet: new Set(), current: -1, query: "",
    selected: null, // {kind: "node", id} | {kind: "layer", id} | {kind: "edge", edge}
  };
  PRECISIONS.forEach(function (p) { state.filters.prec[p] = true; });
  // Big graphs start with their layers collapsed.
  if (model.opCount > 400) model.layers.forEach(function (l) { state.collapsed.add(l.id); });

  document.title = "amp report: " + (doc.title || "model");
  el("title").textContent = "amp report: " + (doc.title || "model") + " → " + (model.report.target || "?");

  let dg = null;
  let layoutMs = 0;
  const view = new View(el("graph"), {
    select: function (d) {
      if (d.kind === "layer") selectLayer(d.layer.id);
      else selectNode(d.node.id, false);
    },
    selectEdge: function (e) {
      state.selected = { kind: "edge", edge: e };
      renderEdgeDetails(model, e, dg);
      restyle();
    },
    open: function (d) {
      if (d.kind === "layer") toggleLayer(d.layer.id, d.layer.members[0]);
    },
    hover: function (info) { showTooltip(model, info, dg); },
    rendered: function (nodes, edges) {
      minimap.update();
      el("status").textContent = dg.nodes.length + " nodes (" + nodes + " drawn), " + dg.edges.length + " edges · layout " +
        layoutMs.toFixed(0) + " ms · drag to pan, wheel to zoom";
    },
  });
  view.classOf = function (d) { return d.cls || ""; };
  const minimap = new Minimap(el("minimap"), view);
  // The fills of the precisions, for the overview (a canvas has no CSS).
  const style = window.getComputedStyle(document.documentElement);
  const fills = {};
  PRECISIONS.forEach(function (p) { fills[p] = style.getPropertyValue("--" + p).trim() || "#999"; });
  const colorOf = function (d) {
    if (d.cls && d.cls.indexOf(" sel") >= 0) return "#1c7ed6";
    if (d.cls && d.cls.indexOf(" hit") >= 0) return "#f08c00";
    if (d.cls && d.cls.indexOf(" dim") >= 0) return "#e9ecef";
    if (d.kind === "layer") return fills[d.layer.prec];
    if (d.kind === "op") return fills[d.node.prec];
    return "#39424c";
  };

  function matches(n) {
    if (n.kind !== "op") return true;
    const f = state.filters;
    if (!f.cls[n.cls] && CLASSES.indexOf(n.cls) >= 0) return false;
    if (!f.prec[n.prec]) return false;
    if (f.castsOnly && !n.casts) return false;
    return true;
  }

  /** Sets the class string of every display node (filters, hits, selection). */
  function restyle() {
    if (!dg) return;
    const sel = state.selected;
    dg.nodes.forEach(function (d) {
      let cls;
      if (d.kind === "layer") {
        const l = d.layer;
        cls = "layer cls-" + l.cls + " prec-" + l.prec;
        let any = false, hit = false;
        for (let i = 0; i < l.members.length; i++) {
          const n = model.nodes[l.members[i]];
          if (!any && matches(n)) any = true;
          if (!hit && state.hitSet.has(n.id)) hit = true;
          if (any && hit) break;
        }
        if (!any) cls += " dim";
        if (hit) cls += " hit";
        if (sel && sel.kind === "layer" && sel.id === l.id) cls += " sel";
      } else {
        const n = d.node;
        cls = n.kind === "op" ? "op cls-" + n.cls + " prec-" + n.prec : "io";
        if (!matches(n)) cls += " dim";
        if (state.hitSet.has(n.id)) cls += " hit";
        if (sel && sel.kind === "node" && sel.id === n.id) cls += " sel";
      }
      d.cls = cls;
    });
    minimap.draw(colorOf);
    view.requestRender();
  }

  function relayout() {
    const t0 = now();
    dg = displayGraph(model, state.collapsed);
    const bounds = layoutGraph(dg);
    layoutMs = now() - t0;
    view.setGraph(dg, bounds);
    restyle();
  }

  function displayOf(id) {
    const n = model.nodes[id];
    if (n.layer >= 0 && state.collapsed.has(n.layer)) return dg.nodes[dg.layerRep.get(n.layer)];
    return dg.nodes[dg.rep[id]];
  }

  function toggleLayer(layerId, focusId) {
    if (state.collapsed.has(layerId)) state.collapsed.delete(layerId);
    else state.collapsed.add(layerId);
    relayout();
    const d = focusId !== undefined ? displayOf(focusId) : null;
    if (d) view.centerOn(d);
    if (state.selected && state.selected.kind === "layer" && state.selected.id === layerId) {
      renderLayerDetails(model, model.layers[layerId], state.collapsed.has(layerId));
    }
  }

  /** Selects an op or io node; `reveal` opens its layer and centers it. */
  function selectNode(id, reveal) {
    const n = model.nodes[id];
    if (!n) return;
    if (reveal && n.layer >= 0 && state.collapsed.has(n.layer)) {
      state.collapsed.delete(n.layer);
      relayout();
    }
    state.selected = { kind: "node", id: id };
    renderNodeDetails(model, n);
    restyle();
    if (reveal) view.centerOn(displayOf(id));
  }

  function selectLayer(id) {
    state.selected = { kind: "layer", id: id };
    renderLayerDetails(model, model.layers[id], state.collapsed.has(id));
    restyle();
  }

  function search(query) {
    state.query = query.trim().toLowerCase();
    state.hits = [];
    if (state.query) {
      const terms = state.query.split(/\s+/);
      model.nodes.forEach(function (n) {
        for (let i = 0; i < terms.length; i++) if (n.search.indexOf(terms[i]) < 0) return;
        state.hits.push(n.id);
      });
    }
    state.hitSet = new Set(state.hits);
    state.current = -1;
    renderResults(model, state.hits, state.current, state.query);
    restyle();
  }

  function nextHit(step) {
    if (!state.hits.length) return;
    state.current = (state.current + step + state.hits.length) % state.hits.length;
    renderResults(model, state.hits, state.current, state.query);
    selectNode(state.hits[state.current], true);
  }

  // Wiring.
  const input = el("search");
  let timer = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { search(input.value); }, model.nodes.length > 5000 ? 150 : 40);
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") {
      clearTimeout(timer);
      if (input.value.trim().toLowerCase() !== state.query) search(input.value);
      nextHit(ev.shiftKey ? -1 : 1);
      ev.preventDefault();
    } else if (ev.key === "Escape") {
      input.value = "";
      search("");
      input.blur();
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.target === input) return;
    if (ev.key === "/") { input.focus(); ev.preventDefault(); }
    else if (ev.key === "f") view.fit();
  });
  el("search-results").addEventListener("click", function (ev) {
    const li = ev.target.closest("[data-node]");
    if (!li) return;
    state.current = state.hits.indexOf(Number(li.getAttribute("data-node")));
    renderResults(model, state.hits, state.current, state.query);
    selectNode(Number(li.getAttribute("data-node")), true);
  });
  el("details").addEventListener("click", function (ev) {
    const link = ev.target.closest("[data-node]");
    if (link) { selectNode(Number(link.getAttribute("data-node")), true); return; }
    const layer = ev.target.closest("[data-layer]");
    if (layer) {
      const id = Number(layer.getAttribute("data-layer"));
      selectLayer(id);
      if (state.collapsed.has(id)) view.centerOn(dg.nodes[dg.layerRep.get(id)]);
      return;
    }
    const toggle = ev.target.closest("[data-toggle-layer]");
    if (toggle) {
      const id = Number(toggle.getAttribute("data-toggle-layer"));
      toggleLayer(id, model.layers[id].head);
    }
  });
  el("fit").addEventListener("click", function () { view.fit(); });
  el("collapse-all").addEventListener("click", function () {
    model.layers.forEach(function (l) { state.collapsed.add(l.id); });
    relayout();
    view.fit();
  });
  el("expand-all").addEventListener("click", function () {
    state.collapsed.clear();
    relayout();
    view.fit();
  });
  if (!model.layers.length) {
    el("collapse-all").disabled = true;
    el("expand-all").disabled = true;
  }

  renderSummary(model);
  renderLegend();
  renderFilters(model, state.filters, restyle);
  renderTune(model, function (id) { selectNode(id, true); });

  // The starting state from the fragment.
  const params = new Map();
  String(window.location.hash || "").replace(/^#/, "").split("&").forEach(function (part) {
    const eq = part.indexOf("=");
    if (eq > 0) params.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
  });
  if (params.get("expand") === "all") state.collapsed.clear();
  if (params.get("collapse") === "all") model.layers.forEach(function (l) { state.collapsed.add(l.id); });
  relayout();
  view.fit();
  if (params.has("search")) {
    input.value = params.get("search");
    search(input.value);
    nextHit(1);
  }
  // Draw now rather than on the next frame, so that a page that is only
  // loaded (a headless browser's --dump-dom) has its graph in the DOM.
  view.render();
  // The script's own time, and the time since the browser began to load
  // the page (reading the file and the data included).
  document.body.setAttribute("data-render-ms", (now() - started).toFixed(0));
  if (window.performance && performance.now) {
    document.body.setAttribute("data-open-ms", performance.now().toFixed(0));
  }
  document.body.setAttribute("data-ready", "true");
}

main();
