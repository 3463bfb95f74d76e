/* clusteragree report: spans side by side. One document at a time: its position axis cut in
   rows (the text's lines, rows of tokens, or round stretches of positions), in each row the
   text (or an axis) and one strip per annotator, each unit a box marked by how it differs
   from the units gamma aligned with it, the alignment drawn as links between the strips.
   Pointing at a unit lights it and its aligned partners; a click keeps them lit. Data: the
   view of clusteragree.spans.sidebyside.span_view (docs/report.md, "Spans"). Registers
   CA_RENDER.spans. */
(function () {
  'use strict';
  var R = window.CA_RENDER = window.CA_RENDER || {};
  var LANE = 18, GAP = 14, TEXT = 20, NAME = 88;  /* pixels */
  var SIGN = {boundary: '\u2194', label: '\u2260', partial: '\u2026', unmatched: '\u2205'};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function fixed(x) { return (x === null || x === undefined) ? 'undefined' : x.toFixed(4); }
  /* The width of a character of the strips' font, in pixels. */
  function charWidth() {
    var probe = el('span', 'spans-probe', '0000000000');
    document.body.appendChild(probe);
    var w = probe.getBoundingClientRect().width / 10;
    document.body.removeChild(probe);
    return w > 0 ? w : 8;
  }
  function flags(status) { return status.split('+'); }

  R.spans = function (item, view) {
    var names = view.annotators, CH = charWidth();
    var chars = (item.text !== null && item.text !== undefined) ? Array.from(item.text) : null;
    var tokens = item.tokens || null;
    function unit(a, i) {  /* UNIT_FIELDS of clusteragree.spans.sidebyside */
      var r = item.units[names[a]][i];
      return {start: r[0], end: r[1], label: r[2], id: r[3], text: r[4], status: r[5],
        al: r[6], span: r[7]};
    }
    function alignment(k) {  /* ALIGNMENT_FIELDS */
      var r = item.alignments[k];
      return {units: r[0], unitary: r[1], disorder: r[2], status: r[3], anchor: r[4]};
    }
    function describe(a, i) {
      var u = unit(a, i);
      return names[a] + ' ' + u.start + '-' + u.end + ' ' + u.label +
        (u.text !== null && u.text !== undefined ? ' \u201c' + u.text + '\u201d' : '');
    }
    function members(k) {
      var al = alignment(k);
      return names.map(function (n, a) {
        return al.units[a] === null ? n + ': nothing' : describe(a, al.units[a]);
      }).join(' | ');
    }

    var root = el('div', 'view-spans');
    var said = Object.keys(item.cells).map(function (k) {
      var v = item.cells[k];
      return k + ': ' + (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4)
        : (v === null ? 'undefined' : v));
    });
    root.appendChild(el('p', 'spans-figures', said.join(' \u00b7 ') +
      (item.measure ? ' (ordered by ' + item.measure + ')' : '')));
    if (item.labels && item.labels.length > 1) {
      var keys = Object.keys(item.labels[0]);
      item.labels.forEach(function (r) {
        Object.keys(r).forEach(function (k) { if (keys.indexOf(k) < 0) { keys.push(k); } });
      });
      var table = el('table', 'spans-labels');
      var head = el('tr');
      keys.forEach(function (k) { head.appendChild(el('th', null, k)); });
      table.appendChild(el('thead')).appendChild(head);
      var body = el('tbody');
      item.labels.forEach(function (r) {
        var tr = el('tr');
        keys.forEach(function (k) {
          var v = r[k];
          tr.appendChild(el('td', typeof v === 'number' ? 'num' : null,
            typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4)
              : (v === null || v === undefined ? '' : v)));
        });
        body.appendChild(tr);
      });
      table.appendChild(body);
      var fold = el('details', 'spans-labels-box');
      fold.appendChild(el('summary', null, item.labels.length + ' labels, the worst first'));
      fold.appendChild(table);
      root.appendChild(fold);
    }
    var info = el('div', 'spans-info', view.aligned
      ? 'Point at a unit to light the units gamma aligned with it; click to keep them lit.'
      : 'Gamma was not computed: the units are drawn without an alignment.');
    root.appendChild(info);
    var box = el('div', 'spans-box');
    root.appendChild(box);

    item.rows.forEach(function (row, r) {
      var r0 = row[0], r1 = row[1], last = r === item.rows.length - 1;
      var x;
      if (chars) {
        x = function (p) { return (p - r0) * CH; };
      } else if (tokens) {
        var cum = [0];
        for (var t = r0; t < r1; t++) {
          cum.push(cum[cum.length - 1] + (Array.from(tokens[t]).length + 1) * CH);
        }
        x = function (p) { return cum[Math.max(0, Math.min(p, r1) - r0)]; };
      } else {
        x = function (p) { return (p - r0) * item.scale * CH; };
      }
      var width = x(r1);
      /* the pieces of each annotator's units in this row, in lanes */
      var lanes = names.map(function (n, a) {
        var pieces = [];
        item.units[n].forEach(function (u, i) {
          var s = u[0], e = u[1];
          var inside = e > s ? (s < r1 && e > r0) : (s >= r0 && (s < r1 || (last && s <= r1)));
          if (inside) { pieces.push({a: a, i: i, s: Math.max(s, r0), e: Math.min(e, r1),
            from: s < r0, on: e > r1}); }
        });
        var ends = [];
        pieces.forEach(function (p) {
          var k = 0;
          while (k < ends.length && ends[k] > p.s) { k++; }
          ends[k] = Math.max(p.e, p.s + 1e-9);
          p.lane = k;
        });
        return {pieces: pieces, count: Math.max(1, ends.length)};
      });
      var top = [], y = TEXT + 4;
      lanes.forEach(function (l) { top.push(y); y += l.count * LANE + GAP; });
      var height = y - GAP + 6;
      var div = el('div', 'spans-row');
      div.style.width = (NAME + width + 12) + 'px';
      div.style.height = height + 'px';
      var links = svg('svg', {'class': 'spans-links', width: NAME + width + 12, height: height});
      div.appendChild(links);
      div.appendChild(el('div', 'spans-at', String(r0))).title = 'this row starts at ' + r0;
      /* the text, or an axis */
      var line = el('div', 'spans-line');
      line.style.left = NAME + 'px';
      if (chars) {
        for (var p = r0; p < r1; p++) {
          var c = chars[p], cell = el('span', 'spans-c' + (c === '\n' ? ' spans-nl' : ''),
            c === '\n' ? '\u23ce' : (c === '\t' ? ' ' : c));
          cell.style.width = CH + 'px';
          line.appendChild(cell);
        }
      } else if (tokens) {
        for (var k = r0; k < r1; k++) {
          var tok = el('span', 'spans-tok', tokens[k]);
          tok.style.width = (x(k + 1) - x(k)) + 'px';
          tok.title = 'token ' + k + ': ' + tokens[k];
          line.appendChild(tok);
        }
      } else {
        line.className += ' spans-axis';
        line.style.width = width + 'px';
        var span = r1 - r0, step = Math.pow(10, Math.floor(Math.log10(span / 5)));
        [1, 2, 5, 10].some(function (m) { if (span / (step * m) <= 10) { step *= m; return true; }
          return false; });
        for (var v = Math.ceil(r0 / step) * step; v <= r1 + 1e-9; v += step) {
          var tick = el('span', 'spans-tick', String(+v.toPrecision(10)));
          tick.style.left = x(v) + 'px';
          line.appendChild(tick);
        }
      }
      div.appendChild(line);
      /* the strips */
      var centre = {};  /* alignment -> annotator -> [x, top, bottom] of its piece here */
      lanes.forEach(function (l, a) {
        var who = el('div', 'spans-who', names[a]);
        who.style.top = top[a] + 'px';
        div.appendChild(who);
        var band = el('div', 'spans-band');
        band.style.top = (top[a] - 2) + 'px';
        band.style.left = NAME + 'px';
        band.style.width = width + 'px';
        band.style.height = (l.count * LANE + 2) + 'px';
        div.appendChild(band);
        l.pieces.forEach(function (p) {
          var u = unit(a, p.i);
          var mark = el('div', 'spans-u ' + flags(u.status).map(function (f) {
            return 'spans-st-' + f; }).join(' ') + (p.from ? ' spans-from' : '') +
            (p.on ? ' spans-on' : '') + (u.end === u.start ? ' spans-empty' : ''));
          var left = NAME + x(p.s), w = Math.max(x(p.e) - x(p.s), 3);
          mark.style.left = left + 'px';
          mark.style.width = w + 'px';
          mark.style.top = (top[a] + p.lane * LANE) + 'px';
          var sign = flags(u.status).map(function (f) { return SIGN[f] || ''; }).join('');
          if (sign) { mark.appendChild(el('span', 'spans-sign', sign)); }
          mark.appendChild(document.createTextNode(u.label));
          mark.dataset.u = a + ':' + p.i;
          if (u.al !== null && u.al !== undefined) {
            var al = alignment(u.al);
            mark.dataset.al = String(u.al);
            mark.dataset.pos = 'al' + al.unitary;  /* as the alignment table names it */
            if (al.anchor) { mark.dataset.anchor = al.anchor; }
            var spot = centre[u.al] = centre[u.al] || {};
            spot[a] = [left + w / 2, top[a] + p.lane * LANE, top[a] + p.lane * LANE + LANE - 3];
          }
          mark.title = describe(a, p.i) + (u.id !== null ? ' (' + u.id + ')' : '') + '\n' +
            u.status.replace(/\+/g, ', ') + (u.al !== null && u.al !== undefined
            ? '\naligned: ' + members(u.al) : '');
          div.appendChild(mark);
        });
      });
      /* the alignment: links between the strips, from each unit to the next annotator's */
      Object.keys(centre).forEach(function (k) {
        var spot = centre[k], at = Object.keys(spot).map(Number).sort(function (m, n) {
          return m - n; });
        var status = alignment(+k).status;
        for (var j = 0; j + 1 < at.length; j++) {
          var from = spot[at[j]], to = spot[at[j + 1]];
          var link = svg('line', {x1: from[0], y1: from[2], x2: to[0], y2: to[1],
            'class': 'spans-link' + flags(status).map(function (f) {
              return ' spans-link-' + f; }).join('')});
          link.setAttribute('data-al', k);
          links.appendChild(link);
        }
      });
      box.appendChild(div);
    });

    var pinned = null;
    function clear() {
      Array.prototype.forEach.call(root.querySelectorAll('.spans-hl, .spans-hl2'), function (e) {
        e.classList.remove('spans-hl'); e.classList.remove('spans-hl2');
      });
    }
    function light(key) {
      clear();
      var parts = key.split(':'), a = +parts[0], i = +parts[1], u = unit(a, i);
      Array.prototype.forEach.call(root.querySelectorAll('[data-u="' + key + '"]'),
        function (e) { e.classList.add('spans-hl'); });
      if (u.al === null || u.al === undefined) {
        info.textContent = describe(a, i) + ': not aligned (gamma was not computed)';
        return;
      }
      Array.prototype.forEach.call(root.querySelectorAll('[data-al="' + u.al + '"]'),
        function (e) { if (e.dataset.u !== key) { e.classList.add('spans-hl2'); } });
      var al = alignment(u.al);
      info.textContent = 'unitary alignment ' + al.unitary + ' (' +
        al.status.replace(/\+/g, ', ') + ', disorder ' + fixed(al.disorder) + '): ' +
        members(u.al);
    }
    root.addEventListener('mouseover', function (e) {
      var m = e.target.closest && e.target.closest('.spans-u');
      if (m && !pinned) { light(m.dataset.u); }
    });
    root.addEventListener('mouseleave', function () { if (!pinned) { clear(); } });
    root.addEventListener('click', function (e) {  /* capture: before a mark's own link */
      var m = e.target.closest && e.target.closest('.spans-u');
      if (!m) { if (box.contains(e.target)) { pinned = null; clear(); } return; }
      pinned = pinned === m.dataset.u ? null : m.dataset.u;
      if (pinned) { light(pinned); } else { clear(); }
    }, true);
    return root;
  };
})();
