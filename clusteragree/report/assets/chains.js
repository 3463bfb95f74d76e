/* clusteragree report: coreference chains side by side (one column per annotator, one row
   per sentence); hovering a mention lights its chain in its column and the aligned chain in
   the others, a click pins the selection. Registers CA_RENDER.chains. */
(function () {
  'use strict';
  var R = window.CA_RENDER = window.CA_RENDER || {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function colour(i) {
    var hue = (i * 137.508) % 360, light = [38, 50, 30][i % 3];
    return 'hsl(' + hue.toFixed(1) + ',70%,' + light + '%)';
  }

  /* Pieces of mentions within [from, to), made to nest: a piece that crosses the end of
     an enclosing one is cut there and its rest placed after it. */
  function forest(pieces) {
    var queue = pieces.slice().sort(function (a, b) { return a.s - b.s || b.e - a.e || a.k - b.k; });
    var roots = [], stack = [];
    while (queue.length) {
      var p = queue.shift();
      while (stack.length && stack[stack.length - 1].e <= p.s) { stack.pop(); }
      var top = stack[stack.length - 1];
      if (top && p.e > top.e) {
        var rest = {s: top.e, e: p.e, k: p.k, more: true};
        p = {s: p.s, e: top.e, k: p.k, cut: true};
        var at = 0;
        while (at < queue.length && (queue[at].s < rest.s ||
          (queue[at].s === rest.s && queue[at].e >= rest.e))) { at++; }
        queue.splice(at, 0, rest);
      }
      var node = {s: p.s, e: p.e, k: p.k, last: !p.cut, children: []};
      (top ? top.children : roots).push(node);
      stack.push(node);
    }
    (function height(nodes) {
      nodes.forEach(function (n) { height(n.children); n.h = 1 + Math.max(0, Math.max.apply(null,
        n.children.map(function (c) { return c.h; }).concat([0]))); });
    })(roots);
    return roots;
  }

  R.chains = function (item, view) {
    var names = view.annotators, tokens = item.tokens, joiner = item.joiner;
    function chainOf(a, c) {  /* CHAIN_FIELDS of clusteragree.coref.sidebyside */
      var r = item.chains[names[a]][c];
      return {id: r[0], n: r[1], colour: r[2], partner: r[3], status: r[4], first: r[5]};
    }
    var root = el('div', 'view-chains');
    var info = el('div', 'chains-info', 'Point at a mention to see its chain in every column; ' +
      'click to keep it lit. The number after a mention is its chain: aligned chains share ' +
      'number and colour.');
    root.appendChild(info);
    var box = el('div', 'chains-box');
    var grid = el('div', 'chains-grid');
    grid.style.gridTemplateColumns = '2.6em repeat(' + names.length + ', minmax(0, 1fr))';
    grid.appendChild(el('div', 'chains-head', '#'));
    names.forEach(function (n) { grid.appendChild(el('div', 'chains-head', n)); });
    var pieces = names.map(function (n) {
      var out = [];
      item.mentions[n].forEach(function (m, k) {
        m[0].forEach(function (span) { out.push({s: span[0], e: span[1], k: k}); });
      });
      return out.sort(function (a, b) { return a.s - b.s; });
    });

    function text(from, to) {
      var words = [];
      for (var t = from; t < to; t++) { words.push(tokens[t]); }
      return document.createTextNode(words.join(joiner));
    }
    function draw(parent, nodes, from, to, a) {
      var pos = from;
      function gap(p) { if (p > from && joiner) { parent.appendChild(document.createTextNode(joiner)); } }
      nodes.forEach(function (n) {
        if (n.s > pos) { gap(pos); parent.appendChild(text(pos, n.s)); }
        gap(n.s);
        var m = item.mentions[names[a]][n.k], chain = chainOf(a, m[1]);
        var span = el('span', 'chains-m chains-' + m[2] + chain.status.map(function (s) {
          return ' chains-' + s.replace('one-sided', 'alone'); }).join(''));
        span.style.borderBottomColor = colour(chain.colour);
        span.style.paddingBottom = (1 + 4 * (n.h - 1)) + 'px';
        span.dataset.chain = a + ':' + m[1];
        span.dataset.m = a + ':' + n.k;
        if (m[3]) { span.dataset.anchor = m[3]; }
        var words = m[4] || [m[0][0][0], m[0][m[0].length - 1][1] - 1];
        span.dataset.pos = words[0] + '-' + words[1];  /* as the worst units name it */
        span.title = names[a] + ', chain ' + chain.id + ' (' + chain.n + ' mention' +
          (chain.n === 1 ? '' : 's') + ', first "' + chain.first + '")' +
          (m[2] === 'one' ? '; another annotator did not mark this mention' : '') +
          (m[2] === 'other' ? '; another annotator put it in another chain' : '') +
          (chain.status.length ? '; chain ' + chain.status.join(', ') : '');
        draw(span, n.children, n.s, n.e, a);
        if (n.last) {
          var tag = el('sub', 'chains-id', String(chain.colour + 1));
          tag.style.color = colour(chain.colour);
          span.appendChild(tag);
        }
        parent.appendChild(span);
        pos = n.e;
      });
      if (pos < to) { gap(pos); parent.appendChild(text(pos, to)); }
    }

    item.rows.forEach(function (row, r) {
      var label = el('div', 'chains-row', String(r + 1));
      grid.appendChild(label);
      names.forEach(function (n, a) {
        var cell = el('div', 'chains-cell');
        var mine = pieces[a].filter(function (p) { return p.s < row[1] && p.e > row[0]; })
          .map(function (p) { return {s: Math.max(p.s, row[0]), e: Math.min(p.e, row[1]), k: p.k}; });
        draw(cell, forest(mine), row[0], row[1], a);
        grid.appendChild(cell);
      });
    });
    box.appendChild(grid);
    root.appendChild(box);

    var pinned = null;
    function clear() {
      Array.prototype.forEach.call(root.querySelectorAll('.chains-hl, .chains-hl2'), function (e) {
        e.classList.remove('chains-hl'); e.classList.remove('chains-hl2');
      });
    }
    function light(key) {
      clear();
      var parts = key.split(':'), a = +parts[0], c = +parts[1];
      var chain = chainOf(a, c);
      Array.prototype.forEach.call(root.querySelectorAll('[data-chain="' + key + '"]'),
        function (e) { e.classList.add('chains-hl'); });
      var said = [names[a] + ': chain ' + chain.id + ' (' + chain.n + ' mentions, first "' +
        chain.first + '")' + (chain.status.length ? ', ' + chain.status.join(', ') : '')];
      names.forEach(function (n, b) {
        if (b === a) { return; }
        var p = chain.partner[b];
        if (p === null || p === undefined) { said.push(n + ': no chain shares a mention'); return; }
        var other = chainOf(b, p);
        Array.prototype.forEach.call(root.querySelectorAll('[data-chain="' + b + ':' + p + '"]'),
          function (e) { e.classList.add('chains-hl2'); });
        said.push(n + ': aligned chain ' + other.id + ' (' + other.n + ' mentions, first "' +
          other.first + '")');
      });
      info.textContent = said.join(' \u2014 ');
    }
    root.addEventListener('mouseover', function (e) {
      var m = e.target.closest && e.target.closest('.chains-m');
      if (m && !pinned) { light(m.dataset.chain); }
    });
    root.addEventListener('mouseleave', function () { if (!pinned) { clear(); } });
    root.addEventListener('click', function (e) {
      var m = e.target.closest && e.target.closest('.chains-m');
      if (!m) { pinned = null; clear(); return; }
      pinned = pinned === m.dataset.chain ? null : m.dataset.chain;
      if (pinned) { light(pinned); } else { clear(); }
    });
    return root;
  };
})();
