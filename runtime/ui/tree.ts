// Flat rows → a tree by declared id / parent fields, and the questions a side tree asks of it.
/** A row as the server answers it. */
export type Row = Record<string, unknown>;

export interface TreeNode {
  key: string;
  id: string | number;
  parent: string | number | null;
  label: string;
  count?: number;
  row: Row;
  children: TreeNode[];
}

export interface TreeFields {
  idField?: string;
  parentField?: string;
  labelField?: string;
  countField?: string;
}

/** The forest of `rows`; rows whose parent is missing (or the virtual root) are top level. Siblings keep the server's order. */
export function buildTree(rows: Row[], f: TreeFields = {}): TreeNode[] {
  const idF = f.idField ?? 'id';
  const parentF = f.parentField ?? 'parentId';
  const labelF = f.labelField ?? 'name';
  const nodes = new Map<string, TreeNode>();
  for (const r of rows) {
    const id = r[idF] as string | number;
    if (id === undefined || id === null) continue;
    const count = f.countField ? Number(r[f.countField] ?? 0) : undefined;
    nodes.set(String(id), { key: String(id), id, parent: (r[parentF] as string | number | null) ?? null, label: String(r[labelF] ?? ''), count, row: r, children: [] });
  }
  const top: TreeNode[] = [];
  for (const n of nodes.values()) {
    const p = n.parent === null ? undefined : nodes.get(String(n.parent));
    // a row naming itself (or a cycle) as parent stays at the top instead of vanishing
    if (p && p !== n && !isAncestor(n, p, nodes)) p.children.push(n);
    else top.push(n);
  }
  return top;
}

function isAncestor(a: TreeNode, b: TreeNode, nodes: Map<string, TreeNode>): boolean {
  // is `a` an ancestor of `b` (walking b's parents)?
  const seen = new Set<string>();
  let cur: TreeNode | undefined = b;
  while (cur && !seen.has(cur.key)) {
    if (cur === a) return true;
    seen.add(cur.key);
    cur = cur.parent === null ? undefined : nodes.get(String(cur.parent));
  }
  return false;
}

/** The node and every node below it. */
export function descendants(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(descendants)];
}

export function findNode(forest: TreeNode[], key: string): TreeNode | undefined {
  for (const n of forest) {
    if (n.key === key) return n;
    const hit = findNode(n.children, key);
    if (hit) return hit;
  }
  return undefined;
}

/** Would moving `node` under `target` put it under itself? */
export function movesUnderItself(node: TreeNode, targetKey: string): boolean {
  return descendants(node).some((n) => n.key === targetKey);
}

/** Only the nodes whose label contains `text`, with their ancestors (case-insensitive). */
export function filterTree(forest: TreeNode[], text: string): TreeNode[] {
  const t = text.trim().toLowerCase();
  if (!t) return forest;
  const walk = (nodes: TreeNode[]): TreeNode[] =>
    nodes.flatMap((n) => {
      const kids = walk(n.children);
      return n.label.toLowerCase().includes(t) || kids.length ? [{ ...n, children: kids }] : [];
    });
  return walk(forest);
}

/** Position among its siblings, for disabling move up / move down. */
export function siblingPlace(forest: TreeNode[], node: TreeNode): { first: boolean; last: boolean } {
  const parent = node.parent === null ? undefined : findNode(forest, String(node.parent));
  const sibs = parent ? parent.children : forest;
  const i = sibs.findIndex((s) => s.key === node.key);
  return { first: i <= 0, last: i === sibs.length - 1 };
}

/** A tree select's options (antd TreeSelect with fieldNames label: title, value: value). */
export interface TreeOption {
  value: string;
  title: string;
  children: TreeOption[];
}
export function treeOptions(nodes: TreeNode[]): TreeOption[] {
  return nodes.map((n) => ({ value: n.key, title: n.label, children: treeOptions(n.children) }));
}
