// model.js - The report's data as the page uses it: nodes (the report's ops
// and the functions' inputs and outputs), edges, layers, and the graph that
// is displayed for a set of collapsed layers.

/** The precision class of a report op: what its fill shows. */
function precisionOf(op) {
  if (!op || !op.converted) {
    return op && op.reason === "unsupported types" ? "other" : "fp32";
  }
  const t = String(op.compute || "");
  if (t === "f16") return "f16";
  if (t === "bf16") return "bf16";
  if (t.startsWith("f8")) return "fp8";
  if (t === "f32") return "fp32";
  return "other";
}

const PRECISION_NAMES = {
  fp32: "FP32", f16: "f16", bf16: "bf16", fp8: "FP8", other: "other",
};
const PRECISIONS = ["fp32", "f16", "bf16", "fp8", "other"];
const CLASSES = ["green", "gray", "red"];

/** "linalg.conv_2d_nchw_fchw" -> "conv_2d_nchw_fchw". */
function shortName(name) {
  const dot = name.indexOf(".");
  return dot >= 0 ? name.slice(dot + 1) : name;
}

/** 1536 -> "1.5 KiB". */
function formatBytes(bytes) {
  if (bytes === undefined || bytes === null) return "-";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Number(bytes);
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : 1)) +
    " " + units[unit];
}

/** A number as the panels show it (errors, bounds). */
function formatNumber(value) {
  if (value === null || value === undefined) return "not finite";
  if (value === 0) return "0";
  const a = Math.abs(value);
  if (a >= 1e5 || a < 1e-3) return value.toExponential(2);
  return String(Number(value.toPrecision(4)));
}

/** The text of the second line of an op node. */
function precisionLine(op) {
  if (!op.converted) return "FP32";
  let text = op.compute;
  if (op.accumulate && op.accumulate !== op.compute) text += " · acc " + op.accumulate;
  if (op.output && op.output !== op.compute) text += " → " + op.output;
  return text;
}

/**
 * Builds the model from the document: {nodes, edges, layers, functions,
 * opCount, tuneOf}. Node ids: report op i is node i; io[k] is node
 * opCount + k.
 */
function buildModel(doc) {
  const report = doc.report || {};
  const ops = Array.isArray(report.ops) ? report.ops : [];
  const graph = doc.graph || {};
  const layerOf = graph.layer || [];
  const opCount = ops.length;
  const nodes = [];
  for (let i = 0; i < opCount; i++) {
    const op = ops[i];
    const layer = typeof layerOf[i] === "number" ? layerOf[i] : -1;
    nodes.push({
      id: i, kind: "op", op: op, fn: op.function || "", layer: layer,
      label: shortName(op.op || "?"), prec: precisionOf(op),
      cls: op.color || "gray", ins: [], outs: [], casts: 0, search: "",
    });
  }
  (graph.io || []).forEach(function (io, k) {
    nodes.push({
      id: opCount + k, kind: io.kind === "output" ? "output" : "input",
      io: io, fn: io.function || "", layer: -1,
      label: io.name, prec: "other", cls: "", ins: [], outs: [], casts: 0,
      search: "",
    });
  });

  const edges = [];
  (graph.edges || []).forEach(function (e) {
    const from = e[0], to = e[1];
    if (!(from >= 0 && from < nodes.length && to >= 0 && to < nodes.length)) return;
    const edge = { id: edges.length, from: from, to: to, bytes: e[2] || 0, casts: e[3] || "" };
    edges.push(edge);
    nodes[from].outs.push(edge);
    nodes[to].ins.push(edge);
    if (edge.casts) {
      nodes[from].casts++;
      nodes[to].casts++;
    }
  });

  // Layers are numbered from 0 in each function, in program order (the
  // group of ops before the first layer is "input").
  const numberIn = new Map();
  const layers = (graph.layers || []).map(function (l, id) {
    const fn = l.function || "";
    let name = l.name || "layer";
    if (l.kind !== "prologue") {
      const number = numberIn.get(fn) || 0;
      numberIn.set(fn, number + 1);
      name = "layer " + number + ": " + name;
    }
    return {
      id: id, fn: fn, name: name, kind: l.kind || "", head: l.head,
      members: [], counts: {},
    };
  });
  nodes.forEach(function (n) {
    if (n.layer >= 0 && n.layer < layers.length) {
      const layer = layers[n.layer];
      layer.members.push(n.id);
      layer.counts[n.prec] = (layer.counts[n.prec] || 0) + 1;
    } else {
      n.layer = -1;
    }
  });
  layers.forEach(function (layer) {
    const head = nodes[layer.head];
    layer.cls = head ? head.cls : "gray";
    // The precision that most of the layer's ops compute in.
    let best = "other", count = -1;
    PRECISIONS.forEach(function (p) {
      if ((layer.counts[p] || 0) > count) { best = p; count = layer.counts[p] || 0; }
    });
    layer.prec = best;
  });

  // Functions in the order they appear; each holds its node ids.
  const functions = [];
  const fnIndex = new Map();
  nodes.forEach(function (n) {
    if (!fnIndex.has(n.fn)) {
      fnIndex.set(n.fn, functions.length);
      functions.push({ name: n.fn, nodes: [] });
    }
    functions[fnIndex.get(n.fn)].nodes.push(n.id);
  });

  // amp-tune's measurements, joined to ops by name and location.
  const tuneOf = new Map();
  if (doc.tune && Array.isArray(doc.tune.ops)) {
    const byKey = new Map();
    ops.forEach(function (op, i) {
      const key = op.op + "\n" + op.loc;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(i);
    });
    doc.tune.ops.forEach(function (t) {
      const list = byKey.get(t.op + "\n" + t.loc);
      if (list && list.length) {
        t.node = list.shift();
        tuneOf.set(t.node, t);
      }
    });
  }

  nodes.forEach(function (n) {
    const parts = [n.label];
    if (n.op) {
      parts.push(n.op.op, n.op.loc, n.op.reason, n.op.color, PRECISION_NAMES[n.prec], n.op.function);
    } else {
      parts.push(n.kind, n.io.type, n.fn);
    }
    n.search = parts.join("\n").toLowerCase();
  });

  return {
    doc: doc, report: report, nodes: nodes, edges: edges, layers: layers,
    functions: functions, opCount: opCount, tuneOf: tuneOf,
  };
}

/**
 * The graph as displayed: every node outside a collapsed layer, one node
 * per collapsed layer, and the edges between them (edges inside a collapsed
 * layer disappear; parallel ones merge, adding their cast bytes).
 * Display nodes: {key, kind, node|layer, fn, w, h}; edges: {from, to, bytes,
 * casts (array of strings), count, edges}.
 */
function displayGraph(model, collapsed) {
  const dnodes = [];
  const rep = new Int32Array(model.nodes.length);
  const layerRep = new Map();
  model.nodes.forEach(function (n) {
    if (n.layer >= 0 && collapsed.has(n.layer)) {
      let index = layerRep.get(n.layer);
      if (index === undefined) {
        index = dnodes.length;
        layerRep.set(n.layer, index);
        dnodes.push({ key: "L" + n.layer, kind: "layer", layer: model.layers[n.layer], fn: n.fn, w: 196, h: 50 });
      }
      rep[n.id] = index;
      return;
    }
    rep[n.id] = dnodes.length;
    const io = n.kind !== "op";
    dnodes.push({ key: "n" + n.id, kind: n.kind, node: n, fn: n.fn, w: io ? 132 : 176, h: io ? 30 : 40 });
  });
  const dedges = [];
  const byPair = new Map();
  model.edges.forEach(function (e) {
    const a = rep[e.from], b = rep[e.to];
    if (a === b) return;
    const key = a * 4194304 + b;
    let d = byPair.get(key);
    if (!d) {
      d = { from: a, to: b, bytes: 0, casts: [], count: 0, edges: [] };
      byPair.set(key, d);
      dedges.push(d);
    }
    d.bytes += e.bytes;
    d.count++;
    d.edges.push(e);
    if (e.casts && d.casts.indexOf(e.casts) < 0) d.casts.push(e.casts);
  });
  return { nodes: dnodes, edges: dedges, rep: rep, layerRep: layerRep };
}
