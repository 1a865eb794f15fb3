// The declared side tree of a list page (`sideTree` in a page declaration): a searchable tree whose
// selection filters the list by the node and its descendants; with `edit`, an add button and a node
// menu (move up / move down / edit / delete) with their confirmations; a collapse bar folds the panel
// to a thin strip (remembered per page, like the expanded nodes). Nothing here knows what the nodes
// are: fields, calls and messages all come from the declaration.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Dropdown, Empty, Form, Input, Modal, Spin, Tree, TreeSelect, Typography } from 'antd';
import type { MenuProps, TreeDataNode } from 'antd';
import { DoubleLeftOutlined, DoubleRightOutlined, EllipsisOutlined, PlusOutlined } from '@ant-design/icons';
import { useCrudServices } from './services';
import { useNarrow } from '../ui/narrow';
import { useFeedback } from './feedback';
import { parseCall, fill } from './template';
import { buildTree, descendants, filterTree, findNode, movesUnderItself, siblingPlace, treeOptions, type TreeNode } from '../ui/tree';
import type { Row, SideTreeDecl } from './types';

export const ROOT_KEY = '0';

interface Props {
  decl: SideTreeDecl;
  /** remembers the expanded nodes per page */
  pageId: string;
  /** ids of the selected node and its descendants; null = root (no filter) */
  onSelect(ids: Array<string | number> | null): void;
  /** moves after the list's records were written (saved, deleted, imported): the tree's counts are read again */
  version?: number;
}

interface EditState {
  node?: TreeNode;
  parentKey: string;
}

const storageKey = (pageId: string) => `crud-tree-expanded:${pageId}`;
const foldedKey = (pageId: string) => `crud-tree-folded:${pageId}`;
function loadExpanded(pageId: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(storageKey(pageId)) ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
function store(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: not remembered */
  }
}

export function SideTree({ decl, pageId, onSelect, version = 0 }: Props) {
  const services = useCrudServices();
  const { message, modal } = useFeedback();
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<string>(ROOT_KEY);
  const [expanded, setExpanded] = useState<string[]>(() => [ROOT_KEY, ...loadExpanded(pageId)]);
  const [folded, setFolded] = useState(() => {
    try {
      return localStorage.getItem(foldedKey(pageId)) === '1';
    } catch {
      return false;
    }
  });
  const [editing, setEditing] = useState<EditState | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string; parentKey: string }>();
  const edit = decl.edit;
  const editable = Boolean(edit) && services.hasPermission(edit?.perms?.length ? edit.perms : ['*:*:*']);
  const rootLabel = decl.rootLabel ?? '全部';
  const noun = edit?.noun ?? '节点';

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const { method, path } = parseCall(decl.api);
      const data = await services.request<Row[] | { records: Row[] }>(method, path, method === 'POST' ? { body: {} } : {});
      setRows(Array.isArray(data) ? data : (data?.records ?? []));
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [decl.api, services]);

  useEffect(() => {
    void reload();
  }, [reload, version]);

  const forest = useMemo(() => buildTree(rows, decl), [rows, decl]);
  const shown = useMemo(() => filterTree(forest, text), [forest, text]);

  // the selection keeps filtering by the node's current descendants when the tree reloads
  useEffect(() => {
    if (selected === ROOT_KEY) return onSelect(null);
    const node = findNode(forest, selected);
    if (!node) {
      if (!loading) setSelected(ROOT_KEY);
      return;
    }
    onSelect(descendants(node).map((n) => n.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, forest]);

  const remember = (keys: string[]) => {
    setExpanded(keys);
    store(storageKey(pageId), JSON.stringify(keys.filter((k) => k !== ROOT_KEY)));
  };

  // collapsing a node forgets its descendants too, so reopening it shows only its own children
  const onExpand = (keys: string[], collapsed: string | null) => {
    if (collapsed === null) return remember(keys);
    const node = collapsed === ROOT_KEY ? null : findNode(forest, collapsed);
    const gone = new Set(node ? descendants(node).map((n) => n.key) : forest.flatMap(descendants).map((n) => n.key));
    remember(keys.filter((k) => !gone.has(k)));
  };

  const fold = (value: boolean) => {
    setFolded(value);
    store(foldedKey(pageId), value ? '1' : null);
  };

  const runNodeCall = async (call: string | undefined, node: TreeNode) => {
    if (!call) return;
    const { method, path } = parseCall(call, node.row);
    await services.request(method, path, { params: { [decl.idField ?? 'id']: node.id } });
  };

  const menuFor = (node: TreeNode): MenuProps['items'] => {
    const place = siblingPlace(forest, node);
    return [
      ...(edit?.up ? [{ key: 'up', label: '上移', disabled: place.first }] : []),
      ...(edit?.down ? [{ key: 'down', label: '下移', disabled: place.last }] : []),
      { key: 'edit', label: '编辑' },
      ...(edit?.delete ? [{ key: 'delete', label: '删除', danger: true }] : []),
    ];
  };

  const onMenu = (node: TreeNode, key: string) => {
    if (key === 'up' || key === 'down') {
      void runNodeCall(key === 'up' ? edit?.up : edit?.down, node).then(reload, () => undefined);
    } else if (key === 'edit') {
      openEditor({ node, parentKey: node.parent === null || !findNode(forest, String(node.parent)) ? ROOT_KEY : String(node.parent) });
    } else if (key === 'delete') {
      modal.confirm({
        title: '系统提示',
        content: fill(edit?.deleteConfirm ?? '确定要删除【{name}】吗？', { name: node.label }),
        okText: '确定',
        cancelText: '取消',
        onOk: async () => {
          try {
            await runNodeCall(edit?.delete, node);
          } catch {
            return; // refused (a group that still holds records): the box closes, the request layer showed why
          }
          message.success('删除成功');
          if (descendants(node).some((n) => n.key === selected)) setSelected(ROOT_KEY);
          await reload();
        },
      });
    }
  };

  const openEditor = (state: EditState) => {
    setEditing(state);
    form.setFieldsValue({ name: state.node?.label ?? '', parentKey: state.parentKey });
  };

  const save = async () => {
    if (!edit || !editing) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages are under the fields
    if (editing.node && movesUnderItself(editing.node, v.parentKey)) {
      form.setFields([{ name: 'parentKey', errors: [fill(edit.selfMoveMessage ?? '节点【{name}】不能移到自己节点下', { name: editing.node.label })] }]);
      return;
    }
    const parent = v.parentKey === ROOT_KEY ? 0 : (findNode(forest, v.parentKey)?.id ?? 0);
    const body: Row = { ...(editing.node?.row ?? {}), [decl.parentField ?? 'parentId']: parent, [decl.labelField ?? 'name']: v.name.trim() };
    if (decl.countField) delete body[decl.countField];
    setSaving(true);
    try {
      const { method, path } = parseCall(edit.save);
      await services.request(method, path, { body });
      message.success(editing.node ? '保存成功' : '添加成功');
      setEditing(null);
      if (parent !== 0) remember([...new Set([...expanded, String(parent)])]);
      await reload();
    } catch {
      /* the request layer showed the server's message; the dialog stays open with the input */
    } finally {
      setSaving(false);
    }
  };

  const titleOf = (node: TreeNode) => (
    <span className="side-tree-node" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%' }}>
      <Typography.Text ellipsis style={{ maxWidth: (decl.width ?? 240) - 110 }}>
        {node.label}
      </Typography.Text>
      {node.count !== undefined && <Typography.Text type="secondary">({node.count})</Typography.Text>}
      {editable && (
        <Dropdown trigger={['click']} menu={{ items: menuFor(node), onClick: ({ key, domEvent }) => (domEvent.stopPropagation(), onMenu(node, key)), style: { width: 100 } }}>
          <Button type="text" size="small" className="side-tree-more" icon={<EllipsisOutlined />} aria-label={`${node.label} 操作`} onClick={(e) => e.stopPropagation()} />
        </Dropdown>
      )}
    </span>
  );

  const toData = (nodes: TreeNode[]): TreeDataNode[] => nodes.map((n) => ({ key: n.key, title: titleOf(n), children: toData(n.children) }));
  // a node's count covers its whole subtree: the root adds its top-level nodes (each row once), never every row
  const total = useMemo(() => (decl.countField ? forest.reduce((s, n) => s + (n.count ?? 0), 0) : undefined), [forest, decl.countField]);
  const treeData: TreeDataNode[] = [
    {
      key: ROOT_KEY,
      title: (
        <span>
          {rootLabel}
          {total !== undefined && <Typography.Text type="secondary"> ({total})</Typography.Text>}
        </span>
      ),
      children: toData(shown),
    },
  ];
  const parentOptions = useMemo(() => [{ value: ROOT_KEY, title: rootLabel, children: treeOptions(forest) }], [forest, rootLabel]);

  const narrow = useNarrow();
  const bar = (
    <Button
      type="text"
      size="small"
      className="side-tree-fold"
      aria-label={folded ? '展开侧栏' : '收起侧栏'}
      title={folded ? '展开侧栏' : '收起侧栏'}
      icon={folded ? <DoubleRightOutlined /> : <DoubleLeftOutlined />}
      onClick={() => fold(!folded)}
      style={{ position: 'absolute', top: 0, right: -12, width: 12, minWidth: 12, height: '100%', padding: 0, borderRadius: 0, fontSize: 10 }}
    />
  );
  // on a phone the tree waits in a drawer (CrudView's SplitPane): nothing to fold there
  if (folded && !narrow) {
    return (
      <div className="side-tree side-tree-folded" style={{ position: 'relative', width: 0, flex: 'none', alignSelf: 'stretch', minHeight: 120, borderRight: '1px solid rgba(5,5,5,0.06)' }}>
        {bar}
      </div>
    );
  }

  return (
    <div className="side-tree" style={{ position: 'relative', width: decl.width ?? 240, flex: 'none', alignSelf: 'stretch', borderRight: '1px solid rgba(5,5,5,0.06)', paddingRight: 12 }}>
      {!narrow && bar}
      <div style={{ display: 'flex', gap: 8, marginBottom: 8 }}>
        <Input.Search allowClear maxLength={20} placeholder={decl.searchPlaceholder ?? '搜索'} value={text} onChange={(e) => setText(e.target.value)} aria-label={decl.searchPlaceholder ?? '搜索'} />
        {editable && (
          <Button icon={<PlusOutlined />} onClick={() => openEditor({ parentKey: selected })}>
            添加
          </Button>
        )}
      </div>
      <Spin spinning={loading}>
        {failed ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Button size="small" onClick={() => void reload()}>加载失败，重新加载</Button>} />
        ) : (
          <Tree
            blockNode
            showLine
            treeData={treeData}
            selectedKeys={[selected]}
            // rc-tree treats a present expandedKeys as controlled, even when undefined: while searching, leave it out
            {...(text ? { defaultExpandAll: true } : { expandedKeys: expanded })}
            // on mount rc-tree (defaultExpandParent) keeps only keys of nodes it already has: the remembered
            // groups, still on their way from the server, were dropped and a reload showed them all closed
            defaultExpandParent={false}
            key={text ? `search:${text}` : 'tree'}
            onExpand={(keys, info) => !text && onExpand(keys.map(String), info.expanded ? null : String(info.node.key))}
            onSelect={(keys) => keys.length && setSelected(String(keys[0]))}
          />
        )}
      </Spin>
      <Modal
        title={`${editing?.node ? '编辑' : '添加'}${noun}`}
        width={500}
        open={Boolean(editing)}
        okText="确定"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => void save()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item name="parentKey" label={edit?.parentTitle ?? `上级${noun}`}>
            <TreeSelect treeData={parentOptions} treeDefaultExpandAll fieldNames={{ label: 'title', value: 'value', children: 'children' }} />
          </Form.Item>
          <Form.Item
            name="name"
            label={edit?.nameTitle ?? `${noun}名称`}
            validateTrigger="onBlur"
            rules={[
              { required: true, whitespace: true, message: edit?.nameMessage ?? `请输入${noun}名称` },
              { max: edit?.nameMaxLength ?? 50, message: `长度不能超过${edit?.nameMaxLength ?? 50}个字符` },
            ]}
          >
            <Input maxLength={edit?.nameMaxLength ?? 50} placeholder={edit?.nameMessage ?? `请输入${noun}名称`} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
