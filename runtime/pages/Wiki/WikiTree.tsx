// The wiki's left pane (spec part 1 §2 "Wiki": 220 px, tree labelled by title, add-group button, per-folder
// add button, title filter). The flat list becomes a tree by id / parentId (the renderer's tree helpers);
// antd's virtual tree draws only the visible rows, so filtering 2,000 nodes costs what filtering 20 does
// plus one linear pass (bench/wiki-tree).
import { useEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { Button, Dropdown, Empty, Input, Spin, Tooltip, Tree, Typography } from 'antd';
import type { MenuProps, TreeDataNode } from 'antd';
import { FileTextOutlined, FolderOpenOutlined, FolderOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { buildTree, filterTree, type TreeNode } from '../../ui/tree';
import { isDocument, type WikiNode } from './api';

export const TREE_WIDTH = 220;

export interface WikiTreeProps {
  nodes: WikiNode[];
  loading?: boolean;
  selected: number | null;
  onSelect(node: WikiNode): void;
  /** editing controls show only with the edit permission (the server decides anyway) */
  canEdit: boolean;
  onAddGroup(parentId: number): void;
  onAddDoc(parentId: number): void;
  onRenameGroup(node: WikiNode): void;
  onDeleteGroup(node: WikiNode): void;
}

/** The pixel height of an element, followed as it resizes (the virtual tree needs a number). */
function useHeight<T extends HTMLElement>(): [React.RefObject<T>, number] {
  const ref = useRef<T>(null);
  const [h, setH] = useState(400);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setH(Math.max(100, Math.floor(e.contentRect.height))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, h];
}

function highlight(label: string, text: string): ReactNode {
  const t = text.trim().toLowerCase();
  const i = t ? label.toLowerCase().indexOf(t) : -1;
  if (i < 0) return label;
  return (
    <>
      {label.slice(0, i)}
      <mark className="wiki-hit">{label.slice(i, i + t.length)}</mark>
      {label.slice(i + t.length)}
    </>
  );
}

/** The open groups, remembered (as the list pages' side trees remember theirs): a reload, or the tree drawn anew
 * after a save, keeps what the reader opened. */
const OPEN_KEY = 'dsc.wiki.openGroups';
function rememberedOpen(): Key[] {
  try {
    const v = JSON.parse(localStorage.getItem(OPEN_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((k) => typeof k === 'string' || typeof k === 'number') : [];
  } catch {
    return [];
  }
}

const folderKeys = (forest: TreeNode[]): string[] => forest.flatMap((n) => (n.children.length ? [n.key, ...folderKeys(n.children)] : []));

export function WikiTree({ nodes, loading, selected, onSelect, canEdit, onAddGroup, onAddDoc, onRenameGroup, onDeleteGroup }: WikiTreeProps) {
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState<Key[]>(rememberedOpen);
  useEffect(() => {
    try {
      localStorage.setItem(OPEN_KEY, JSON.stringify(expanded.map(String)));
    } catch {
      // storage full or off: the tree still works, it just forgets
    }
  }, [expanded]);
  const [bodyRef, height] = useHeight<HTMLDivElement>();
  const forest = useMemo(() => buildTree(nodes as never[], { labelField: 'title' }), [nodes]);
  const shown = useMemo(() => filterTree(forest, text), [forest, text]);
  const filtering = text.trim() !== '';
  // while filtering every branch that holds a hit is open; otherwise the user's own choice
  const openKeys = useMemo(() => (filtering ? folderKeys(shown) : expanded), [filtering, shown, expanded]);

  // the selected document's folders open when it is chosen from outside (a link, a reload)
  useEffect(() => {
    if (selected == null) return;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const up: string[] = [];
    for (let cur = byId.get(selected), i = 0; cur && cur.parentId && i < 50; cur = byId.get(cur.parentId), i++) up.push(String(cur.parentId));
    if (up.length) setExpanded((e) => Array.from(new Set([...e.map(String), ...up])));
  }, [selected, nodes]);

  const treeData = useMemo(() => {
    const toData = (list: TreeNode[]): TreeDataNode[] =>
      list.map((n) => {
        const node = n.row as unknown as WikiNode;
        const doc = isDocument(node);
        return { key: n.key, title: n.label, isLeaf: doc, children: doc ? undefined : toData(n.children) };
      });
    return toData(shown);
  }, [shown]);
  const byKey = useMemo(() => new Map(nodes.map((n) => [String(n.id), n])), [nodes]);

  const folderMenu = (node: WikiNode): MenuProps => ({
    items: [
      { key: 'rename', label: '重命名' },
      { key: 'delete', label: '删除分组', danger: true },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'rename') onRenameGroup(node);
      else onDeleteGroup(node);
    },
  });
  const addMenu = (node: WikiNode): MenuProps => ({
    items: [
      { key: 'doc', label: '新建文档', icon: <FileTextOutlined /> },
      { key: 'group', label: '新建子分组', icon: <FolderOutlined /> },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'doc') onAddDoc(node.id);
      else onAddGroup(node.id);
    },
  });

  return (
    <div className="wiki-tree" style={{ width: TREE_WIDTH, display: 'flex', flexDirection: 'column', height: '100%', borderRight: '1px solid rgba(5,5,5,0.06)' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '8px 8px 4px' }}>
        <Typography.Text strong>文档目录</Typography.Text>
        {canEdit && (
          <Tooltip title="新建分组">
            <Button size="small" type="text" aria-label="新建分组" icon={<PlusOutlined />} onClick={() => onAddGroup(0)} />
          </Tooltip>
        )}
      </div>
      <div style={{ padding: '0 8px 8px' }}>
        <Input.Search aria-label="搜索标题" placeholder="搜索标题" allowClear maxLength={20} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <div ref={bodyRef} style={{ flex: 1, minHeight: 0 }} data-testid="wiki-tree">
        {loading && !nodes.length ? (
          <Spin style={{ display: 'block', marginTop: 40 }} />
        ) : !treeData.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filtering ? '没有匹配的标题' : '暂无文档'} />
        ) : (
          <Tree
            blockNode
            virtual
            height={height}
            showIcon
            treeData={treeData}
            expandedKeys={openKeys}
            onExpand={(keys) => !filtering && setExpanded(keys)}
            selectedKeys={selected != null ? [String(selected)] : []}
            onSelect={(_, info) => {
              const node = byKey.get(String(info.node.key));
              if (node) onSelect(node);
            }}
            icon={(p) => {
              const node = byKey.get(String((p as { eventKey?: Key }).eventKey));
              if (node && isDocument(node)) return <FileTextOutlined />;
              return (p as { expanded?: boolean }).expanded ? <FolderOpenOutlined /> : <FolderOutlined />;
            }}
            titleRender={(d) => {
              const node = byKey.get(String(d.key));
              const label = highlight(String(d.title), text);
              if (!node || isDocument(node) || !canEdit) return <span className="wiki-node-title">{label}</span>;
              return (
                <span className="wiki-node" style={{ display: 'inline-flex', width: '100%', alignItems: 'center' }}>
                  <span className="wiki-node-title" style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {label}
                  </span>
                  <span className="wiki-node-actions" onClick={(e) => e.stopPropagation()}>
                    <Dropdown menu={addMenu(node)} trigger={['click']}>
                      <Button size="small" type="text" aria-label={`在【${node.title}】下新建`} icon={<PlusOutlined />} />
                    </Dropdown>
                    <Dropdown menu={folderMenu(node)} trigger={['click']}>
                      <Button size="small" type="text" aria-label={`分组【${node.title}】操作`} icon={<MoreOutlined />} />
                    </Dropdown>
                  </span>
                </span>
              );
            }}
          />
        )}
      </div>
    </div>
  );
}
