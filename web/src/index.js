// The index's one script (lib/outputs/view_index.cpp writes the table, docs/view.md#what-a-page-shows):
// a click on a column's head sorts the models by it (again: the other way), and the two filters
// show only the refused and failed models or hide those with no garment found. The page reads
// without it; it changes only what is shown, from what the rows already say.
const table = document.getElementById('models');
const body = table.tBodies[0];
const heads = Array.from(table.tHead.rows[0].cells);

function key(row, column, numeric) {
  const cell = row.cells[column];
  const value = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
  return numeric ? Number(value) : value.toLowerCase();
}

function sortBy(column, descending) {
  const numeric = heads[column].dataset.type === 'num';
  const rows = Array.from(body.rows).map((row, at) => ({ row, at, key: key(row, column, numeric) }));
  rows.sort((a, b) => {
    const order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return (descending ? -order : order) || a.at - b.at;
  });
  for (const { row } of rows) body.append(row);
  heads.forEach((h, i) => { if (i === column) h.setAttribute('aria-sort', descending ? 'descending' : 'ascending'); else h.removeAttribute('aria-sort'); });
}

heads.forEach((h, column) => {
  if (h.dataset.type === 'none') return;
  h.addEventListener('click', () => sortBy(column, h.getAttribute('aria-sort') === 'ascending'));
});

const onlyProblems = document.getElementById('only-problems');
const hideNoGarment = document.getElementById('hide-no-garment');
function filter() {
  let shown = 0;
  for (const row of body.rows) {
    const problem = row.dataset.outcome === 'refused' || row.dataset.outcome === 'failed';
    const hidden = (onlyProblems.checked && !problem) || (hideNoGarment.checked && row.dataset.kind === 'no-garment');
    row.hidden = hidden;
    shown += hidden ? 0 : 1;
  }
  document.getElementById('shown').textContent = `${shown} of ${body.rows.length} shown`;
}
onlyProblems.addEventListener('change', filter);
hideNoGarment.addEventListener('change', filter);
filter();
window.weftIndex = { sortBy, filter };
