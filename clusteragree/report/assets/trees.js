/* The trees view: one sentence's trees, one row per annotator, the words (leaves) in the same
   columns in every row. Dependency trees as arcs over the words, bracketed trees as trees over
   their leaves; what differs is marked (colour and dash or weight) and carries data-anchor.
   Data: clusteragree.trees.sidebyside.tree_view (docs/report.md, "The trees view"). */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var FONT = "13px sans-serif";
  var measure = null;

  function textWidth(text) {
    if (!measure) {
      measure = document.createElement("canvas").getContext("2d");
      measure.font = FONT;
    }
    return measure.measureText(String(text)).width;
  }

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function html(name, cls, parent, text) {
    var node = document.createElement(name);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    if (parent) { parent.appendChild(node); }
    return node;
  }

  /* Column k's left edge and centre, from the widest text shown in it in any row. */
  function columns(widths) {
    var left = [], centre = [], x = 8;
    widths.forEach(function (w) {
      left.push(x);
      centre.push(x + w / 2);
      x += w;
    });
    return { left: left, centre: centre, width: x + 8 };
  }

  function row(box, name, height, width) {
    var div = html("div", "trees-row", box);
    div.setAttribute("data-annotator", name);
    html("div", "trees-name", div, name);
    if (height === null) {
      html("div", "trees-absent", div, "did not annotate this sentence");
      return { div: div, svg: null };
    }
    var svg = el("svg", { "class": "trees-svg", width: width, height: height,
                          viewBox: "0 0 " + width + " " + height }, div);
    return { div: div, svg: svg };
  }

  /* ------------------------------------------------------------------ dependencies */
  function levels(heads) {
    /* An arc's level: one more than the highest arc strictly inside its span. */
    var arcs = [];
    heads.forEach(function (h, i) {
      if (h > 0) { arcs.push({ d: i + 1, lo: Math.min(h, i + 1), hi: Math.max(h, i + 1) }); }
    });
    arcs.sort(function (a, b) { return (a.hi - a.lo) - (b.hi - b.lo); });
    var level = {};
    arcs.forEach(function (a) {
      var top = 0;
      arcs.forEach(function (b) {
        if (b !== a && level[b.d] && b.lo >= a.lo && b.hi <= a.hi && (b.hi - b.lo) < (a.hi - a.lo)) {
          top = Math.max(top, level[b.d]);
        }
      });
      level[a.d] = top + 1;
    });
    return level;
  }

  function dependency(item, view, root) {
    var names = view.annotators;
    var n = 0;
    names.forEach(function (a) {
      var ann = item.annotations[a];
      if (ann) { n = Math.max(n, (ann.words || item.words).length); }
    });
    var widths = [];
    for (var k = 0; k < n; k++) {
      var w = 28;
      names.forEach(function (a) {
        var ann = item.annotations[a];
        if (!ann) { return; }
        var words = ann.words || item.words;
        if (k < words.length) { w = Math.max(w, textWidth(words[k]) + 14); }
      });
      widths.push(w);
    }
    var cols = columns(widths);
    var perRow = {}, top = 1;
    names.forEach(function (a) {
      var ann = item.annotations[a];
      if (ann) {
        perRow[a] = levels(ann.heads);
        Object.keys(perRow[a]).forEach(function (d) { top = Math.max(top, perRow[a][d]); });
      }
    });
    var step = 16, base = top * step + 30, height = base + 26;
    var tokenised = item.differences.some(function (d) { return d.anchor === "tok"; });
    var box = html("div", "trees-scroll", root);
    names.forEach(function (a) {
      var ann = item.annotations[a];
      var r = row(box, a, ann ? height : null, cols.width);
      if (!ann) { return; }
      if (tokenised) {
        r.div.classList.add("trees-tokenised");
        r.div.setAttribute("data-anchor", "tok");
      }
      var words = ann.words || item.words;
      var headDiff = {}, relDiff = {};
      ann.head_differs.forEach(function (i) { headDiff[i] = true; });
      ann.relation_differs.forEach(function (i) { relDiff[i] = true; });
      var arcs = el("g", { "class": "trees-arcs" }, r.svg);
      var labels = el("g", { "class": "trees-labels" }, r.svg);
      ann.heads.forEach(function (h, i) {
        var d = i + 1, xd = cols.centre[i], path, lx, ly;
        if (h === 0 || h > words.length) {
          path = "M" + xd + "," + 14 + " L" + xd + "," + (base - 4);
          lx = xd; ly = 11;
        } else if (h === d) {  /* a word headed by itself (left out of the tree) */
          path = "M" + (xd - 5) + "," + (base - 4) + " a5,8 0 1,1 10,0";
          lx = xd; ly = base - 16;
        } else {
          var xh = cols.centre[h - 1] + (h < d ? 3 : -3), rise = perRow[a][d] * step;
          path = "M" + xh + "," + (base - 4) + " C" + xh + "," + (base - 4 - rise * 1.33) +
            " " + xd + "," + (base - 4 - rise * 1.33) + " " + xd + "," + (base - 4);
          lx = (xh + xd) / 2; ly = base - 4 - rise - 3;
        }
        var arc = el("path", { "class": "trees-arc", d: path, "data-dep": d }, arcs);
        el("path", { "class": "trees-tip", d: "M" + (xd - 3) + "," + (base - 10) + " L" + xd +
                     "," + (base - 4) + " L" + (xd + 3) + "," + (base - 10) }, arcs);
        if (headDiff[d]) {
          arc.classList.add("trees-arc-differs");
          arc.setAttribute("data-anchor", "w" + d);
        }
        var label = el("text", { "class": "trees-rel", x: lx, y: ly, "text-anchor": "middle",
                                 "data-dep": d }, labels);
        label.textContent = ann.deprels[i] === "_" ? "" : ann.deprels[i];
        if (relDiff[d]) {
          label.classList.add("trees-rel-differs");
          label.setAttribute("data-anchor", "w" + d);
        }
      });
      words.forEach(function (word, i) {
        var t = el("text", { "class": "trees-word", x: cols.centre[i], y: base + 16,
                             "text-anchor": "middle", "data-col": i + 1 }, r.svg);
        t.textContent = word;
      });
    });
  }

  /* ------------------------------------------------------------------ phrase structure */
  function depths(nodes) {
    var depth = [0];
    for (var p = 0; p < nodes.length; p++) {
      nodes[p].children.forEach(function (c) { depth[c] = depth[p] + 1; });
    }
    return depth;
  }

  function lanes(missing) {
    /* Stack the missing spans so that those that overlap sit on different lanes. */
    var ends = [];
    return missing.map(function (m) {
      for (var k = 0; k < ends.length; k++) {
        if (ends[k] <= m.span[0]) { ends[k] = m.span[1]; return k; }
      }
      ends.push(m.span[1]);
      return ends.length - 1;
    });
  }

  function phrase(item, view, root) {
    var names = view.annotators;
    var n = 0, deepest = 0, ghostLanes = 0;
    var depthOf = {}, laneOf = {};
    names.forEach(function (a) {
      var ann = item.annotations[a];
      if (!ann) { return; }
      n = Math.max(n, item.leaves[a]);
      depthOf[a] = depths(ann.nodes);
      depthOf[a].forEach(function (d) { deepest = Math.max(deepest, d); });
      var sorted = ann.missing.slice().sort(function (x, y) { return x.span[0] - y.span[0]; });
      var found = lanes(sorted);
      laneOf[a] = new Map();
      sorted.forEach(function (m, k) { laneOf[a].set(m, found[k]); });
      ghostLanes = Math.max(ghostLanes, found.length ? Math.max.apply(null, found) + 1 : 0);
    });
    var widths = [];
    for (var k = 0; k < n; k++) { widths.push(28); }
    names.forEach(function (a) {
      var ann = item.annotations[a];
      if (!ann) { return; }
      ann.nodes.forEach(function (node) {
        if (!node.children.length && node.span[0] < n) {
          widths[node.span[0]] = Math.max(widths[node.span[0]], textWidth(node.label) + 14);
        }
      });
    });
    var cols = columns(widths);
    var level = 34, leafY = deepest * level + 20, height = leafY + 14 + ghostLanes * 20 + 8;
    var box = html("div", "trees-scroll", root);
    names.forEach(function (a) {
      var ann = item.annotations[a];
      var r = row(box, a, ann ? height : null, cols.width);
      if (!ann) { return; }
      var nodes = ann.nodes, depth = depthOf[a], xs = [], ys = [];
      for (var p = nodes.length - 1; p >= 0; p--) {
        var kids = nodes[p].children;
        if (kids.length) {
          xs[p] = (xs[kids[0]] + xs[kids[kids.length - 1]]) / 2;
          ys[p] = depth[p] * level + 20;
        } else {
          xs[p] = cols.centre[nodes[p].span[0]];
          ys[p] = leafY;
        }
      }
      var edges = el("g", { "class": "trees-edges" }, r.svg);
      nodes.forEach(function (node, q) {
        node.children.forEach(function (c) {
          el("line", { "class": "trees-edge", x1: xs[q], y1: ys[q] + 4, x2: xs[c],
                       y2: ys[c] - 12 }, edges);
        });
      });
      nodes.forEach(function (node, q) {
        var g = el("g", { "class": "trees-node" }, r.svg);
        var label = node.label === "" ? "\u2205" : node.label;
        var w = textWidth(label) + 8;
        if (node.differs) {
          g.classList.add("trees-only");
          g.setAttribute("data-anchor", node.differs);
          el("rect", { "class": "trees-frame", x: xs[q] - w / 2, y: ys[q] - 13, width: w,
                       height: 18, rx: 3 }, g);
        }
        var t = el("text", { x: xs[q], y: ys[q], "text-anchor": "middle" }, g);
        t.textContent = label;
        if (!node.children.length) {
          g.classList.add("trees-leaf");
          g.setAttribute("data-col", node.span[0] + 1);
        }
      });
      ann.missing.forEach(function (m) {
        var lane = laneOf[a].get(m);
        var x1 = cols.left[m.span[0]] + 3;
        var last = Math.min(m.span[1], n) - 1;
        var x2 = cols.left[last] + widths[last] - 3;
        var y = leafY + 14 + lane * 20;
        var g = el("g", { "class": "trees-missing", "data-anchor": m.anchor }, r.svg);
        el("path", { "class": "trees-bracket", d: "M" + x1 + "," + (y - 5) + " L" + x1 + "," +
                     y + " L" + x2 + "," + y + " L" + x2 + "," + (y - 5) }, g);
        var t = el("text", { x: (x1 + x2) / 2, y: y + 12, "text-anchor": "middle" }, g);
        t.textContent = m.label === "" ? "\u2205" : m.label;
      });
    });
  }

  /* Hovering a word (a leaf) highlights its column in every annotator's row. */
  function hover(root) {
    var lit = [];
    function clear() {
      lit.forEach(function (node) { node.classList.remove("trees-hover"); });
      lit = [];
    }
    root.addEventListener("mouseover", function (event) {
      var target = event.target.closest ? event.target.closest("[data-col]") : null;
      clear();
      if (!target || !root.contains(target)) { return; }
      var col = target.getAttribute("data-col");
      root.querySelectorAll('[data-col="' + col + '"], [data-dep="' + col + '"]')
        .forEach(function (node) { node.classList.add("trees-hover"); lit.push(node); });
    });
    root.addEventListener("mouseleave", clear);
  }

  window.CA_RENDER = window.CA_RENDER || {};
  window.CA_RENDER.trees = function (item, view) {
    var root = document.createElement("div");
    root.className = "view-trees";
    root.setAttribute("data-item", item.id);
    if (item.words) { dependency(item, view, root); } else { phrase(item, view, root); }
    hover(root);
    return root;
  };
}());
