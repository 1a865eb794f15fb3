// A checkable tree whose nodes come from a call (`"x-component": "Tree"` with `x-options`), e.g. a role's
// permissions. The value is the fully checked nodes' keys: a parent is in it when all its children are; a
// half-checked parent is shown so but is not in the value. Above the tree: 展开/折叠, 全选/全不选, 父子联动.
import { useMemo, useState } from 'react';
import { Checkbox, Empty, Spin, Tree } from 'antd';
import type { TreeDataNode } from 'antd';
import { useRemoteOptions, type OptionKey, type OptionNode, type OptionsDecl } from './remoteOptions';

interface Props {
  value?: OptionKey[];
  onChange?: (v: OptionKey[]) => void;
  disabled?: boolean;
  /** the declaration's x-options */
  source?: OptionsDecl;
  /** the tree's box height in px (it scrolls inside) */
  height?: number;
}

interface Shape {
  data: TreeDataNode[];
  all: OptionKey[];
  parents: OptionKey[];
  leaves: Set<OptionKey>;
  /** each parent's descendants */
  below: Map<OptionKey, OptionKey[]>;
}

function shapeOf(nodes: OptionNode[]): Shape {
  const s: Shape = { data: [], all: [], parents: [], leaves: new Set(), below: new Map() };
  const walk = (ns: OptionNode[]): { data: TreeDataNode[]; keys: OptionKey[] } => {
    const data: TreeDataNode[] = [];
    const keys: OptionKey[] = [];
    for (const n of ns) {
      s.all.push(n.value);
      keys.push(n.value);
      if (n.children?.length) {
        s.parents.push(n.value);
        const kids = walk(n.children);
        s.below.set(n.value, kids.keys);
        keys.push(...kids.keys);
        data.push({ key: n.value, title: n.label, children: kids.data });
      } else {
        s.leaves.add(n.value);
        data.push({ key: n.value, title: n.label, isLeaf: true });
      }
    }
    return { data, keys };
  };
  s.data = walk(nodes).data;
  return s;
}

export function CheckTree({ value, onChange, disabled, source, height = 280 }: Props) {
  const { loading, error, nodes } = useRemoteOptions(source);
  const shape = useMemo(() => shapeOf(nodes), [nodes]);
  const [expanded, setExpanded] = useState<React.Key[]>([]);
  const [linked, setLinked] = useState(true);
  const checked = useMemo(() => value ?? [], [value]);
  const has = useMemo(() => new Set(checked), [checked]);

  // linked: the tree derives the parents from the leaves (a child added later is not granted by its parent's
  // key); unlinked: each node by itself, a parent with some checked below it shown half-checked
  const checkedKeys = useMemo(() => {
    if (linked) return checked.filter((k) => shape.leaves.has(k));
    const halfChecked = shape.parents.filter((p) => !has.has(p) && shape.below.get(p)!.some((k) => has.has(k)));
    return { checked, halfChecked };
  }, [linked, checked, has, shape]);

  const known = shape.all.filter((k) => has.has(k)).length;
  const allExpanded = shape.parents.length > 0 && shape.parents.every((p) => expanded.includes(p));
  return (
    <div className="crud-check-tree" data-testid="check-tree">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 12px', marginBottom: 4 }}>
        <Checkbox checked={allExpanded} disabled={!shape.parents.length} onChange={(e) => setExpanded(e.target.checked ? shape.parents : [])}>
          展开/折叠
        </Checkbox>
        <Checkbox
          checked={shape.all.length > 0 && known === shape.all.length}
          indeterminate={known > 0 && known < shape.all.length}
          disabled={disabled || !shape.all.length}
          onChange={(e) => onChange?.(e.target.checked ? shape.all : [])}
        >
          全选/全不选
        </Checkbox>
        <Checkbox checked={linked} disabled={disabled} onChange={(e) => setLinked(e.target.checked)}>
          父子联动
        </Checkbox>
      </div>
      <div style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: 4, maxHeight: height, overflow: 'auto' }}>
        {loading ? (
          <div style={{ padding: 16, textAlign: 'center' }}>
            <Spin size="small" /> <span style={{ marginLeft: 8 }}>加载中…</span>
          </div>
        ) : !shape.data.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={error ? '加载失败' : '暂无数据'} />
        ) : (
          <Tree
            checkable
            selectable={false}
            virtual={false}
            disabled={disabled}
            checkStrictly={!linked}
            treeData={shape.data}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys)}
            checkedKeys={checkedKeys}
            onCheck={(keys) => onChange?.((Array.isArray(keys) ? keys : keys.checked) as OptionKey[])}
          />
        )}
      </div>
    </div>
  );
}
