/* clusteragree report: tables that sort, filter and page; the viewer that draws one item of a
   side-by-side view on demand (renderers register in window.CA_RENDER); links between the
   differences and their places. Plain ES2017, no library, no network. */
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('ca-data').textContent);
  var RENDER = window.CA_RENDER = window.CA_RENDER || {};
  var PAGE = 100;

  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') { el.textContent = attrs[k]; } else if (k === 'on') {
        Object.keys(attrs.on).forEach(function (e) { el.addEventListener(e, attrs.on[e]); });
      } else if (attrs[k] !== null && attrs[k] !== undefined) { el.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) {
        el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
      }
    });
    return el;
  }
  window.CA_H = h;

  function show(value, column) {
    if (value === null || value === undefined) { return ''; }
    if (typeof value === 'number') {
      if (column && column.int) { return String(value); }
      return Number.isInteger(value) && !(column && column.num === 'float')
        ? String(value) : value.toFixed(4);
    }
    if (typeof value === 'object' && value.text !== undefined) { return String(value.text); }
    return String(value);
  }
  function sortKey(value) {
    if (value === null || value === undefined) { return null; }
    if (typeof value === 'object' && value.sort !== undefined) { return value.sort; }
    if (typeof value === 'object' && value.text !== undefined) { return value.text; }
    return value;
  }
  function compare(a, b) {
    if (a === null) { return b === null ? 0 : 1; }
    if (b === null) { return -1; }
    if (typeof a === 'number' && typeof b === 'number') { return a - b; }
    return String(a).localeCompare(String(b), undefined, {numeric: true});
  }

  /* A table from {columns: [{key, label, title}], rows: [[value of each column]], sort,
     desc}. A cell value is a number, a text, or {text, href, sort, title}. */
  function table(spec, mount) {
    var at = {};
    spec.columns.forEach(function (c, i) { at[c.key] = i; });
    var state = {sort: spec.sort || null, desc: !!spec.desc, filter: '', shown: PAGE};
    var head = h('tr', {}, spec.columns.map(function (c, i) {
      return h('th', {title: c.title || null, 'data-col': c.key, tabindex: '0',
        'aria-sort': 'none', on: {click: function () { sortBy(c.key); },
          keydown: function (e) { if (e.key === 'Enter') { sortBy(c.key); } }}},
        [c.label || c.key]);
    }));
    var body = h('tbody');
    var count = h('span', {'class': 'ca-count'});
    var more = h('button', {type: 'button', 'class': 'ca-more', on: {click: function () {
      state.shown = Infinity; draw(); }}}, ['show all']);
    var search = h('input', {type: 'search', placeholder: 'filter rows (any text in them)',
      'aria-label': 'filter rows', 'class': 'ca-filter', on: {input: function (e) {
        state.filter = e.target.value.toLowerCase(); state.shown = PAGE; draw(); }}});
    var box = h('div', {'class': 'ca-scroll'}, [h('table', {'class': 'ca-table'},
      [h('thead', {}, [head]), body])]);
    mount.appendChild(h('div', {'class': 'ca-tools'}, [search, count]));
    mount.appendChild(box);
    mount.appendChild(more);
    var texts = spec.rows.map(function (r) {
      return spec.columns.map(function (c, k) { return show(r[k], c); }).join(' ')
        .toLowerCase();
    });
    function sortBy(key) {
      state.desc = state.sort === key ? !state.desc : false; state.sort = key; draw();
    }
    function draw() {
      var order = spec.rows.map(function (r, i) { return i; }).filter(function (i) {
        return !state.filter || texts[i].indexOf(state.filter) >= 0;
      });
      if (state.sort) {
        order.sort(function (i, j) {
          var a = sortKey(spec.rows[i][at[state.sort]]), b = sortKey(spec.rows[j][at[state.sort]]);
          if (a === null || b === null) { return compare(a, b) || i - j; }
          return (state.desc ? -compare(a, b) : compare(a, b)) || i - j;
        });
      }
      Array.prototype.forEach.call(head.children, function (th) {
        th.setAttribute('aria-sort', th.dataset.col !== state.sort ? 'none'
          : (state.desc ? 'descending' : 'ascending'));
      });
      body.textContent = '';
      order.slice(0, state.shown).forEach(function (i) {
        var r = spec.rows[i];
        body.appendChild(h('tr', {}, spec.columns.map(function (c, k) {
          var v = r[k], text = show(v, c);
          var cell = (v && typeof v === 'object' && v.href)
            ? h('a', {href: v.href, title: v.title || null}, [text]) : text;
          return h('td', {'class': typeof sortKey(v) === 'number' ? 'num' : null,
            title: (v && typeof v === 'object' && v.title && !v.href) ? v.title : null},
          [cell]);
        })));
      });
      var rows = spec.rows.length === 1 ? ' row' : ' rows';
      count.textContent = order.length === spec.rows.length
        ? spec.rows.length + rows : order.length + ' of ' + spec.rows.length + rows;
      more.hidden = order.length <= state.shown;
      more.textContent = 'show all ' + order.length + ' rows';
    }
    draw();
    return {sortBy: sortBy, draw: draw};
  }

  /* The viewer: one item of a view, drawn when its link (#open=ID or #open=ID&at=ANCHOR)
     is followed. */
  var ITEMS = {};
  (DATA.views || []).forEach(function (view, v) {
    view.items.forEach(function (item, i) { ITEMS[item.id] = {item: item, view: view, v: v, i: i}; });
  });
  var current = null;

  function flash(els) {
    els.forEach(function (el) {
      el.classList.remove('ca-flash'); void el.offsetWidth; el.classList.add('ca-flash');
    });
  }
  function goTo(anchor) {
    var viewer = document.getElementById('ca-viewer');
    var pos = /^pos-(.*)$/.exec(anchor);
    var marks = Array.prototype.slice.call(viewer.querySelectorAll(pos
      ? '.ca-drawn [data-pos="' + CSS.escape(pos[1]) + '"]'
      : '.ca-drawn [data-anchor="' + CSS.escape(anchor) + '"]'));
    if (marks.length) {
      marks[0].scrollIntoView({block: 'center', inline: 'center'});
      flash(marks);
    } else {
      viewer.scrollIntoView({block: 'start'});
    }
    var row = document.getElementById('ca-d-' + anchor);
    if (row) {
      Array.prototype.forEach.call(viewer.querySelectorAll('.ca-diffs li.ca-current'),
        function (li) { li.classList.remove('ca-current'); });
      row.classList.add('ca-current');
    }
  }
  function open(id, anchor) {
    var found = ITEMS[id], viewer = document.getElementById('ca-viewer');
    if (!found || !viewer) { return; }
    if (current !== id) {
      var item = found.item, view = found.view, render = RENDER[view.kind];
      viewer.textContent = '';
      var siblings = view.items, prev = siblings[found.i - 1], next = siblings[found.i + 1];
      viewer.appendChild(h('div', {'class': 'ca-viewer-head'}, [
        h('h3', {}, [item.name + (item.document && item.document !== item.name
          ? ' (' + item.document + ')' : '')]),
        prev ? h('a', {href: '#open=' + encodeURIComponent(prev.id), 'class': 'ca-prev',
          title: prev.name}, ['\u2190 previous']) : null,
        next ? h('a', {href: '#open=' + encodeURIComponent(next.id), 'class': 'ca-next',
          title: next.name}, ['next \u2192']) : null,
        h('span', {'class': 'meta'}, [(found.i + 1) + ' of ' + siblings.length + ', worst first'])
      ]));
      var drawn = render ? render(item, view)
        : h('p', {'class': 'note'}, ['no renderer for views of kind ' + view.kind]);
      drawn.classList.add('ca-drawn');
      viewer.appendChild(drawn);
      var diffs = item.differences || [];
      if (diffs.length) {
        viewer.appendChild(h('h4', {}, [diffs.length + ' difference' +
          (diffs.length === 1 ? '' : 's') + ' (click one to see it; click a mark to find it here)']));
        viewer.appendChild(h('ol', {'class': 'ca-diffs'}, diffs.map(function (d) {
          return h('li', {id: 'ca-d-' + d.anchor}, [h('a', {href: '#open=' +
            encodeURIComponent(id) + '&at=' + encodeURIComponent(d.anchor)},
          [h('span', {'class': 'ca-kind'}, [d.kind]), ' ',
            d.who ? h('span', {'class': 'meta'}, [d.who.map(function (w) {
              return view.annotators[w]; }).join(' vs ') + ': ']) : null, d.text])]);
        })));
      }
      Array.prototype.forEach.call(drawn.querySelectorAll('[data-anchor]'), function (el) {
        el.classList.add('ca-linked');
        el.addEventListener('click', function (e) {
          e.stopPropagation();
          var row = document.getElementById('ca-d-' + el.dataset.anchor);
          if (row) { row.scrollIntoView({block: 'nearest'}); flash([row]); goTo(el.dataset.anchor); }
        });
      });
      current = id;
    }
    if (anchor) { goTo(anchor); } else { viewer.scrollIntoView({block: 'start'}); }
  }
  function route() {
    var m = /^#open=([^&]*)(?:&at=(.*))?$/.exec(location.hash);
    if (m) { open(decodeURIComponent(m[1]), m[2] ? decodeURIComponent(m[2]) : null); }
  }
  window.CA_OPEN = open;

  document.addEventListener('DOMContentLoaded', function () {
    Array.prototype.forEach.call(document.querySelectorAll('[data-ca-table]'), function (el) {
      var spec = DATA.tables[el.dataset.caTable];
      if (spec) { table(spec, el); }
    });
    window.addEventListener('hashchange', route);
    route();
  });
})();
