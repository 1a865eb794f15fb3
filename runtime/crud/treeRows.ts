// A tree table (`tree` in the declaration): the list call's flat rows nested by their parent field for antd's
// tree data, siblings in the declared order.
import type { Row } from './types';
import { buildTree, type TreeNode } from '../ui/tree';

/** The key antd reads a row's children from: not `children`, which a row may carry as data of its own. */
export const CHILDREN = '__children';

export interface TreeDecl {
  parentField?: string;
  orderField?: string;
}

/** Flat rows → nested rows (each a copy with CHILDREN when it has any); rows whose parent is absent are top level. */
export function nestRows(rows: Row[], tree: TreeDecl, rowKey: string): Row[] {
  const forest = buildTree(rows, { idField: rowKey, parentField: tree.parentField ?? 'parentId' });
  const order = tree.orderField;
  const num = (n: TreeNode) => {
    const v = Number(n.row[order!]);
    return Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
  };
  const walk = (nodes: TreeNode[]): Row[] => {
    // a stable sort: siblings with the same order number keep the server's order
    const sorted = order ? [...nodes].sort((a, b) => num(a) - num(b)) : nodes;
    return sorted.map((n) => (n.children.length ? { ...n.row, [CHILDREN]: walk(n.children) } : n.row));
  };
  return walk(forest);
}

/** The keys of the rows that have children (what 展开 opens). */
export function parentKeys(nested: Row[], rowKey: string): React.Key[] {
  const out: React.Key[] = [];
  const walk = (rows: Row[]) => {
    for (const r of rows) {
      const kids = r[CHILDREN] as Row[] | undefined;
      if (kids) {
        out.push(r[rowKey] as React.Key);
        walk(kids);
      }
    }
  };
  walk(nested);
  return out;
}
