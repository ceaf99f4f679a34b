// layout.js - A layered (Sugiyama-style) layout of the displayed graph, top
// to bottom, one function beside the other:
//   1. ranks: longest path from the sources, then nodes without inputs
//      moved down next to their first reader;
//   2. edges longer than one rank get a dummy node per rank crossed, so
//      that they are routed around the nodes in between;
//   3. order within ranks: barycenter sweeps, down and up;
//   4. x coordinates: each node pulled toward its neighbours, the order
//      and a minimum gap kept.
// Linear in the size of the graph (plus sorting within ranks), so that a
// graph of tens of thousands of nodes lays out in well under a second.

const LAYOUT = {
  rankGap: 46,      // vertical space between ranks
  nodeGap: 26,      // horizontal space between nodes of a rank
  dummyWidth: 10,   // the width an edge's bend point takes in its rank
  functionGap: 160, // between functions
  sweeps: 4,        // barycenter sweeps (each: down and up)
  passes: 6,        // x-coordinate relaxation passes
  maxDummies: 200000,
};

/**
 * Lays out `dg` (displayGraph's result): sets x, y (centers) on every
 * display node and `points` on every edge; returns the bounds
 * {x0, y0, x1, y1} and the title positions of the functions.
 */
function layoutGraph(dg) {
  const byFn = new Map();
  dg.nodes.forEach(function (d, i) {
    if (!byFn.has(d.fn)) byFn.set(d.fn, []);
    byFn.get(d.fn).push(i);
  });
  const outEdges = dg.nodes.map(function () { return []; });
  const inEdges = dg.nodes.map(function () { return []; });
  dg.edges.forEach(function (e) {
    outEdges[e.from].push(e);
    inEdges[e.to].push(e);
  });

  const titles = [];
  let offset = 0;
  let y1 = 0;
  byFn.forEach(function (ids, fn) {
    const box = layoutComponent(dg, ids, inEdges, outEdges);
    const shift = offset - box.x0;
    ids.forEach(function (i) { dg.nodes[i].x += shift; });
    ids.forEach(function (i) {
      outEdges[i].forEach(function (e) {
        e.points.forEach(function (p) { p[0] += shift; });
      });
    });
    titles.push({ name: fn, x: offset, y: -28 });
    offset += box.x1 - box.x0 + LAYOUT.functionGap;
    y1 = Math.max(y1, box.y1);
  });
  return { x0: -20, y0: -50, x1: Math.max(offset - LAYOUT.functionGap, 0) + 20, y1: y1 + 20, titles: titles };
}

/** Lays out the nodes `ids` of one function around x = 0; returns its box. */
function layoutComponent(dg, ids, inEdges, outEdges) {
  const nodes = dg.nodes;
  // 1. Ranks, in a topological order (Kahn's algorithm; the graph of a
  // function is acyclic, but a cycle would only leave nodes unranked,
  // which then go after the others).
  const rank = new Map();
  const indegree = new Map();
  ids.forEach(function (i) { indegree.set(i, inEdges[i].length); });
  const order = [];
  ids.forEach(function (i) { if (indegree.get(i) === 0) order.push(i); });
  for (let head = 0; head < order.length; head++) {
    const v = order[head];
    outEdges[v].forEach(function (e) {
      const left = indegree.get(e.to) - 1;
      indegree.set(e.to, left);
      if (left === 0) order.push(e.to);
    });
  }
  if (order.length < ids.length) {
    const placed = new Set(order);
    ids.forEach(function (i) { if (!placed.has(i)) order.push(i); });
  }
  order.forEach(function (v) {
    let r = 0;
    inEdges[v].forEach(function (e) {
      if (rank.has(e.from)) r = Math.max(r, rank.get(e.from) + 1);
    });
    rank.set(v, r);
  });
  // Nodes without inputs (other than the function's arguments) sit just
  // above their first reader rather than at the top.
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    if (inEdges[v].length || nodes[v].kind === "input" || !outEdges[v].length) continue;
    let r = Infinity;
    outEdges[v].forEach(function (e) { r = Math.min(r, rank.get(e.to) - 1); });
    if (r > rank.get(v) && r !== Infinity) rank.set(v, r);
  }

  // 2. Rank lists with dummy nodes for long edges. A vertex: {id (display
  // node or -1), w, up: [vertex], down: [vertex], x, pos, edge}.
  let maxRank = 0;
  rank.forEach(function (r) { if (r > maxRank) maxRank = r; });
  const ranks = [];
  for (let r = 0; r <= maxRank; r++) ranks.push([]);
  const vertexOf = new Map();
  order.forEach(function (v) {
    const vertex = { id: v, w: nodes[v].w, up: [], down: [], x: 0, pos: 0 };
    vertexOf.set(v, vertex);
    ranks[rank.get(v)].push(vertex);
  });
  let dummies = 0;
  ids.forEach(function (v) { outEdges[v].forEach(function (e) { dummies += Math.max(0, rank.get(e.to) - rank.get(v) - 1); }); });
  const withDummies = dummies <= LAYOUT.maxDummies;
  order.forEach(function (v) {
    outEdges[v].forEach(function (e) {
      const a = vertexOf.get(v), b = vertexOf.get(e.to);
      e.chain = [];
      let prev = a;
      if (withDummies) {
        for (let r = rank.get(v) + 1; r < rank.get(e.to); r++) {
          const d = { id: -1, w: LAYOUT.dummyWidth, up: [prev], down: [], x: 0, pos: 0 };
          prev.down.push(d);
          ranks[r].push(d);
          e.chain.push(d);
          prev = d;
        }
      }
      prev.down.push(b);
      b.up.push(prev);
    });
  });

  // 3. Order within ranks: barycenters of the neighbours' positions.
  ranks.forEach(function (list) { list.forEach(function (v, i) { v.pos = i; }); });
  const sortBy = function (list, neighbours) {
    list.forEach(function (v) {
      const ns = neighbours(v);
      if (!ns.length) { v.key = v.pos; return; }
      let sum = 0;
      for (let k = 0; k < ns.length; k++) sum += ns[k].pos;
      v.key = sum / ns.length;
    });
    list.sort(function (a, b) { return a.key - b.key || a.pos - b.pos; });
    list.forEach(function (v, i) { v.pos = i; });
  };
  for (let s = 0; s < LAYOUT.sweeps; s++) {
    for (let r = 1; r <= maxRank; r++) sortBy(ranks[r], function (v) { return v.up; });
    for (let r = maxRank - 1; r >= 0; r--) sortBy(ranks[r], function (v) { return v.down; });
  }

  // 4. x coordinates: packed, then relaxed toward the neighbours' mean.
  ranks.forEach(function (list) {
    let total = 0;
    list.forEach(function (v) { total += v.w; });
    total += LAYOUT.nodeGap * Math.max(0, list.length - 1);
    let x = -total / 2;
    list.forEach(function (v) { v.x = x + v.w / 2; x += v.w + LAYOUT.nodeGap; });
  });
  const place = function (list, neighbours) {
    const n = list.length;
    if (!n) return;
    const want = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const ns = neighbours(list[i]);
      if (!ns.length) { want[i] = list[i].x; continue; }
      let sum = 0;
      for (let k = 0; k < ns.length; k++) sum += ns[k].x;
      want[i] = sum / ns.length;
    }
    // The closest positions to `want` that keep the order and the gaps,
    // from the left and from the right; their mean keeps both too.
    const left = new Float64Array(n), right = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      left[i] = i ? Math.max(want[i], left[i - 1] + (list[i - 1].w + list[i].w) / 2 + LAYOUT.nodeGap) : want[i];
    }
    for (let i = n - 1; i >= 0; i--) {
      right[i] = i < n - 1 ? Math.min(want[i], right[i + 1] - (list[i + 1].w + list[i].w) / 2 - LAYOUT.nodeGap) : want[i];
    }
    for (let i = 0; i < n; i++) list[i].x = (left[i] + right[i]) / 2;
  };
  const both = function (v) { return v.up.concat(v.down); };
  for (let p = 0; p < LAYOUT.passes; p++) {
    for (let r = 1; r <= maxRank; r++) place(ranks[r], p === LAYOUT.passes - 1 ? both : function (v) { return v.up; });
    for (let r = maxRank - 1; r >= 0; r--) place(ranks[r], p === LAYOUT.passes - 1 ? both : function (v) { return v.down; });
  }

  // y: each rank as tall as its tallest node.
  let y = 0;
  let x0 = Infinity, x1 = -Infinity;
  const rankY = [];
  ranks.forEach(function (list) {
    let h = 12;
    list.forEach(function (v) { if (v.id >= 0) h = Math.max(h, nodes[v.id].h); });
    rankY.push(y + h / 2);
    list.forEach(function (v) {
      v.y = y + h / 2;
      x0 = Math.min(x0, v.x - v.w / 2);
      x1 = Math.max(x1, v.x + v.w / 2);
      if (v.id >= 0) { nodes[v.id].x = v.x; nodes[v.id].y = v.y; }
    });
    y += h + LAYOUT.rankGap;
  });
  if (x0 === Infinity) { x0 = 0; x1 = 0; }

  // Edge routes: from the bottom of the source through the bend points to
  // the top of the target.
  ids.forEach(function (v) {
    const a = nodes[v];
    outEdges[v].forEach(function (e) {
      const b = nodes[e.to];
      const points = [[a.x, a.y + a.h / 2]];
      e.chain.forEach(function (d) { points.push([d.x, d.y]); });
      points.push([b.x, b.y - b.h / 2]);
      e.points = points;
      delete e.chain;
    });
  });
  return { x0: x0, x1: x1, y1: y };
}
