/* The pyramids view: one model summary, each annotator's SCU contributors marked over its text
   (two columns), the SCU alignment of the summary's SCUs beside them. Data: the view built by
   clusteragree.pyramids.sidebyside.pyramid_view (docs/report_pyramids_view.md). */
(function () {
  'use strict';
  window.CA_RENDER = window.CA_RENDER || {};

  var SIDES = ['A', 'B'];
  var GOLDEN = 137.50776405003785;  // degrees: consecutive groups get far-apart hues
  var MARK = {matched: '', split: 'S', merged: 'M', regrouped: 'R', 'one-sided': '\u2020'};

  function hue(group) { return (group * GOLDEN) % 360; }
  function ink(group) {  // the underline: darker, lightness alternating so near hues differ
    return 'hsl(' + hue(group).toFixed(1) + ',80%,' + (group % 2 ? 32 : 45) + '%)';
  }
  function wash(group) { return 'hsl(' + hue(group).toFixed(1) + ',90%,86%)'; }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function other(side) { return side === 'A' ? 'B' : 'A'; }

  function scuName(view, side, uid) {
    var s = view.scus[side][uid];
    var who = view.annotators[SIDES.indexOf(side)];
    return who + ' SCU ' + uid + ' \u201c' + s.label + '\u201d (weight ' + s.weight + ')';
  }

  function tooltip(view, side, c) {
    var s = view.scus[side][c.scu];
    var lines = [scuName(view, side, c.scu) + ', ' + s.status,
                 'contributor: \u201c' + c.text + '\u201d'];
    Object.keys(s.partners).forEach(function (uid) {
      lines.push('\u2194 ' + scuName(view, other(side), uid) + ', Jaccard ' +
                 s.partners[uid].toFixed(2));
    });
    if (!Object.keys(s.partners).length) {
      lines.push('no SCU of ' + view.annotators[SIDES.indexOf(other(side))] +
                 ' shares a word with it');
    }
    return lines.join('\n');
  }

  /* Lanes: contributors whose extents overlap get different lanes (stacked underlines). */
  function lanes(contributors) {
    var ends = [];  // the end of the last extent in each lane
    var order = contributors.map(function (c, j) { return j; });
    order.sort(function (x, y) {
      return contributors[x].parts[0][0] - contributors[y].parts[0][0] || x - y;
    });
    var lane = new Array(contributors.length);
    order.forEach(function (j) {
      var parts = contributors[j].parts;
      var lo = parts[0][0];
      var hi = Math.max.apply(null, parts.map(function (p) { return p[1]; }));
      var k = 0;
      while (k < ends.length && ends[k] > lo) { k += 1; }
      ends[k] = hi;
      lane[j] = k;
    });
    return lane;
  }

  function column(item, view, side, cuts) {
    var chars = Array.from(item.text);  // offsets count code points (Python's), not UTF-16 units
    var contributors = item.sides[side].contributors;
    var lane = lanes(contributors);
    var only = {};
    item.sides[side].only.forEach(function (w) { only[w] = true; });
    var text = el('div', 'pyr-text');
    var maxLane = lane.reduce(function (m, x) { return Math.max(m, x); }, -1);
    text.style.lineHeight = (24 + 5 * Math.max(maxLane, 0)) + 'px';
    var word = 0;
    var words = item.words;
    var wordNode = null;
    var started = {};
    for (var i = 0; i + 1 < cuts.length; i += 1) {
      var lo = cuts[i], hi = cuts[i + 1];
      while (word < words.length && words[word][1] <= lo) { word += 1; }
      var inWord = word < words.length && words[word][0] <= lo && hi <= words[word][1];
      var parent = text;
      if (inWord) {
        if (!wordNode || wordNode.getAttribute('data-w') !== String(word)) {
          wordNode = el('span', 'pyr-w');
          wordNode.setAttribute('data-w', String(word));
          wordNode.setAttribute('data-pos', word + '-' + word);  /* as units name a word */
          if (only[word]) {
            wordNode.className += ' pyr-only';
            wordNode.setAttribute('data-anchor', side + '-w' + word);
            wordNode.title = '\u201c' + chars.slice(words[word][0], words[word][1]).join('') +
              '\u201d: in an SCU of ' + view.annotators[SIDES.indexOf(side)] + ' only';
          }
          text.appendChild(wordNode);
        }
        parent = wordNode;
      } else {
        wordNode = null;
      }
      var covering = [];
      contributors.forEach(function (c, j) {
        if (c.parts.some(function (p) { return p[0] <= lo && hi <= p[1]; })) { covering.push(j); }
      });
      covering.sort(function (x, y) { return lane[y] - lane[x]; });  // outermost: lowest line
      var node = parent;
      covering.forEach(function (j) {
        var c = contributors[j];
        var s = view.scus[side][c.scu];
        var mark = el('span', 'pyr-c pyr-st-' + s.status.replace(/[^a-z]/g, ''));
        mark.setAttribute('data-c', side + j);
        mark.setAttribute('data-scu', c.scu);
        mark.setAttribute('data-group', String(s.group));
        if (c.anchor) { mark.setAttribute('data-anchor', c.anchor); }
        mark.style.borderBottomColor = ink(s.group);
        mark.style.paddingBottom = (1 + 5 * lane[j]) + 'px';
        mark.style.setProperty('--pyr-wash', wash(s.group));
        mark.title = tooltip(view, side, c);
        if (!started[j]) {
          started[j] = true;
          if (MARK[s.status]) {
            var sign = el('sup', 'pyr-sign', MARK[s.status]);
            sign.setAttribute('aria-hidden', 'true');
            mark.appendChild(sign);
          }
        }
        node.appendChild(mark);
        node = mark;
      });
      node.appendChild(document.createTextNode(chars.slice(lo, hi).join('')));
    }
    return text;
  }

  function cutsOf(item) {
    var seen = {0: true};
    seen[Array.from(item.text).length] = true;
    item.words.forEach(function (w) { seen[w[0]] = true; seen[w[1]] = true; });
    SIDES.forEach(function (side) {
      item.sides[side].contributors.forEach(function (c) {
        c.parts.forEach(function (p) { seen[p[0]] = true; seen[p[1]] = true; });
      });
    });
    return Object.keys(seen).map(Number).sort(function (x, y) { return x - y; });
  }

  function alignmentTable(item, view) {
    var groups = [];
    var seen = {};
    var order = [];
    SIDES.forEach(function (side) {
      item.sides[side].contributors.forEach(function (c) {
        order.push([c.parts[0][0], view.scus[side][c.scu].group]);
      });
    });
    order.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    order.forEach(function (o) {
      if (!seen[o[1]]) { seen[o[1]] = true; groups.push(o[1]); }
    });
    var box = el('div', 'pyr-table');
    box.appendChild(el('div', 'pyr-who', 'SCU alignment (this summary\u2019s SCUs)'));
    if (!groups.length) {
      box.appendChild(el('p', 'pyr-none', 'No SCU of either annotator has a contributor in ' +
                         'this summary.'));
      return box;
    }
    var table = el('table', 'pyr-align');
    var head = el('tr');
    ['status', view.annotators[0], view.annotators[1], 'Jaccard'].forEach(function (h) {
      head.appendChild(el('th', null, h));
    });
    table.appendChild(el('thead')).appendChild(head);
    var body = el('tbody');
    groups.forEach(function (g) {
      var group = view.scus.groups[g];
      var row = el('tr', 'pyr-row');
      row.setAttribute('data-group', String(g));
      row.setAttribute('data-status', group.status);
      var status = el('td', 'pyr-status');
      var swatch = el('span', 'pyr-swatch');
      swatch.style.background = ink(g);
      status.appendChild(swatch);
      status.appendChild(document.createTextNode(
        (MARK[group.status] ? MARK[group.status] + ' ' : '') + group.status));
      row.appendChild(status);
      SIDES.forEach(function (side) {
        var cell = el('td');
        group[side].forEach(function (uid) {
          var s = view.scus[side][uid];
          cell.appendChild(el('div', null, uid + ': ' + s.label + ' (' + s.weight + ')'));
        });
        row.appendChild(cell);
      });
      var jac = el('td');
      group.links.forEach(function (link) {
        jac.appendChild(el('div', null, link.A + '\u2013' + link.B + ': ' +
                           link.jaccard.toFixed(2) + (link.how === 'matched' ? '' : ' (linked)')));
      });
      row.appendChild(jac);
      body.appendChild(row);
    });
    table.appendChild(body);
    box.appendChild(table);
    return box;
  }

  CA_RENDER.pyramids = function (item, view) {
    var root = el('div', 'view-pyramids');
    var info = el('div', 'pyr-info', 'Hover or click a contributor: its SCU and the ' +
                  'other annotator\u2019s SCU(s) aligned with it are highlighted.');
    var grid = el('div', 'pyr-grid');
    var cuts = cutsOf(item);
    var cols = {};
    SIDES.forEach(function (side, s) {
      var col = el('div', 'pyr-col');
      col.setAttribute('data-side', side);
      var n = item.sides[side].contributors.length;
      col.appendChild(el('div', 'pyr-who', view.annotators[s] + ' (' + n + ' contributor' +
                         (n === 1 ? '' : 's') + ')'));
      col.appendChild(column(item, view, side, cuts));
      cols[side] = col;
      grid.appendChild(col);
    });
    grid.appendChild(alignmentTable(item, view));
    root.appendChild(grid);
    root.appendChild(info);  // below the text: a longer message moves nothing under the pointer

    var pinned = null;
    function clear() {
      Array.prototype.forEach.call(root.querySelectorAll('.pyr-hl'), function (n) {
        n.classList.remove('pyr-hl');
      });
    }
    function light(side, uids) {
      uids.forEach(function (uid) {
        Array.prototype.forEach.call(
          cols[side].querySelectorAll('.pyr-c[data-scu="' + uid + '"]'),
          function (n) { n.classList.add('pyr-hl'); });
      });
    }
    function show(side, uid) {
      clear();
      var s = view.scus[side][uid];
      var partners = Object.keys(s.partners);
      light(side, [uid]);
      light(other(side), partners);
      var row = root.querySelector('.pyr-row[data-group="' + s.group + '"]');
      if (row) { row.classList.add('pyr-hl'); }
      info.textContent = scuName(view, side, uid) + ', ' + s.status + (partners.length ?
        ' \u2194 ' + partners.map(function (p) {
          return scuName(view, other(side), p) + ' (Jaccard ' + s.partners[p].toFixed(2) + ')';
        }).join('; ') : ': no SCU of the other annotator shares a word with it');
    }
    function showGroup(g) {
      clear();
      var group = view.scus.groups[g];
      light('A', group.A);
      light('B', group.B);
      var row = root.querySelector('.pyr-row[data-group="' + g + '"]');
      if (row) { row.classList.add('pyr-hl'); }
      info.textContent = group.status + ': ' + SIDES.map(function (side) {
        return group[side].map(function (uid) { return scuName(view, side, uid); }).join('; ');
      }).filter(function (t) { return t; }).join(' \u2194 ');
    }
    function target(event) {
      var mark = event.target.closest ? event.target.closest('.pyr-c') : null;
      if (mark && root.contains(mark)) {
        return {side: mark.closest('.pyr-col').getAttribute('data-side'),
                uid: mark.getAttribute('data-scu')};
      }
      var row = event.target.closest ? event.target.closest('.pyr-row') : null;
      if (row && root.contains(row)) { return {group: row.getAttribute('data-group')}; }
      return null;
    }
    function act(t) {
      if (t.group !== undefined) { showGroup(t.group); } else { show(t.side, t.uid); }
    }
    root.addEventListener('mouseover', function (event) {
      var t = target(event);
      if (t && !pinned) { act(t); }
    });
    root.addEventListener('mouseout', function (event) {
      if (!pinned && target(event) && !(event.relatedTarget && root.contains(event.relatedTarget) &&
          target({target: event.relatedTarget}))) { clear(); }
    });
    root.addEventListener('click', function (event) {
      var t = target(event);
      if (!t) { return; }
      var key = JSON.stringify(t);
      if (pinned === key) { pinned = null; clear(); return; }
      pinned = key;
      act(t);
    });
    return root;
  };
})();
