// Sorting for tables marked "sortable" and expand/collapse for findings. No external resources.
(function () {
  function key(cell, numeric) {
    var raw = cell.getAttribute('data-sort');
    if (raw === null) raw = cell.textContent.trim();
    if (!numeric) return raw.toLowerCase();
    var n = parseFloat(raw);
    return isNaN(n) ? -Infinity : n;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, column) {
      th.addEventListener('click', function () {
        var numeric = th.getAttribute('data-type') === 'number';
        var ascending = th.getAttribute('data-dir') !== 'asc';
        Array.prototype.forEach.call(heads, function (h) {
          h.removeAttribute('data-dir');
          var a = h.querySelector('.arrow');
          if (a) a.textContent = '';
        });
        th.setAttribute('data-dir', ascending ? 'asc' : 'desc');
        th.querySelector('.arrow').textContent = ascending ? '\u25B2' : '\u25BC';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var a = key(r1.cells[column], numeric), b = key(r2.cells[column], numeric);
          return (a < b ? -1 : a > b ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  function setAll(open) {
    document.querySelectorAll('details.finding').forEach(function (d) { d.open = open; });
  }
  var expand = document.getElementById('expand-all');
  var collapse = document.getElementById('collapse-all');
  if (expand) expand.addEventListener('click', function () { setAll(true); });
  if (collapse) collapse.addEventListener('click', function () { setAll(false); });
  // Following a dump's link (or opening the page at #dump-N) opens its findings.
  function openGroup(id) {
    var group = document.getElementById(id);
    if (!group) return;
    for (var n = group.nextElementSibling; n && n.tagName === 'DETAILS'; n = n.nextElementSibling) n.open = true;
  }
  document.querySelectorAll('td.name a').forEach(function (a) {
    a.addEventListener('click', function () { openGroup(a.getAttribute('href').slice(1)); });
  });
  if (location.hash.length > 1) openGroup(location.hash.slice(1));
})();
