// Optimal one-to-one matching of tracks to detections (the Hungarian method), as ByteTrack does it. A greedy "best
// pair first" match goes wrong for people walking side by side: one track takes its neighbour's box because that
// pair scores a little higher, and the neighbour's track is left with nothing (or its own box swapped in).

/** A possible match and how good it is (higher is better, > 0). */
export interface Candidate {
  row: number;
  column: number;
  similarity: number;
}

/**
 * The set of pairs, each row and column used at most once, that makes the most pairs with the most similarity
 * (it minimises the sum of 1 − similarity over pairs made plus 2 per row or column left over). Solved per group of rows and columns linked by candidates, so the usual frame — each person overlapping
 * only their own box — costs no more than sorting; only a real conflict (a group) pays the O(n³) method.
 */
export function bestPairs(rows: number, columns: number, candidates: readonly Candidate[]): Array<[row: number, column: number]> {
  const rowUses = new Uint16Array(rows);
  const columnUses = new Uint16Array(columns);
  for (const c of candidates) {
    rowUses[c.row]!++;
    columnUses[c.column]!++;
  }
  const pairs: Array<[number, number]> = [];
  const contested: Candidate[] = [];
  for (const c of candidates) {
    // A pair that competes with no other is in the best set as it is.
    if (rowUses[c.row] === 1 && columnUses[c.column] === 1) pairs.push([c.row, c.column]);
    else contested.push(c);
  }
  if (contested.length > 0) {
    // Union-find over rows 0…rows-1 and columns rows…rows+columns-1: each group of linked pairs is solved on its own.
    const parent = new Int32Array(rows + columns).map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
      return i;
    };
    for (const c of contested) parent[find(c.row)] = find(rows + c.column);
    const groups = new Map<number, Candidate[]>();
    for (const c of contested) {
      const root = find(c.row);
      const group = groups.get(root);
      if (group) group.push(c);
      else groups.set(root, [c]);
    }
    for (const group of groups.values()) pairs.push(...solveGroup(group));
  }
  // Sorted, so callers see the same order whatever the grouping.
  return pairs.sort((a, b) => a[0] - b[0]);
}

/** The Hungarian method (shortest augmenting paths with potentials) on one group's square cost matrix. */
function solveGroup(group: readonly Candidate[]): Array<[number, number]> {
  const rowIds = [...new Set(group.map((c) => c.row))].sort((a, b) => a - b);
  const columnIds = [...new Set(group.map((c) => c.column))].sort((a, b) => a - b);
  const n = Math.max(rowIds.length, columnIds.length);
  // Cost 1 − similarity for a candidate; a non-candidate (or a padding row/column) costs 1 + a little more than any
  // candidate could save, so it is taken only where no candidate can be, and never instead of one.
  const NONE = 2;
  const cost = Array.from({ length: n }, () => new Float64Array(n).fill(NONE));
  const rowIndex = new Map(rowIds.map((id, i) => [id, i]));
  const columnIndex = new Map(columnIds.map((id, i) => [id, i]));
  for (const c of group) cost[rowIndex.get(c.row)!]![columnIndex.get(c.column)!] = 1 - c.similarity;

  // 1-based arrays, as in the textbook form: p[j] is the row matched to column j.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1);
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const current = cost[i0 - 1]![j - 1]! - u[i0]! - v[j]!;
        if (current < minv[j]!) {
          minv[j] = current;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  const pairs: Array<[number, number]> = [];
  for (let j = 1; j <= n; j++) {
    const r = p[j]! - 1;
    const c = j - 1;
    if (r < rowIds.length && c < columnIds.length && cost[r]![c]! < NONE) pairs.push([rowIds[r]!, columnIds[c]!]);
  }
  return pairs;
}
