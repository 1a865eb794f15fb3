import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Form, Input, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, ExclamationCircleFilled, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import columnPanel from '../../../../schemas/page-editor/column.panel.json';
import fieldPanel from '../../../../schemas/page-editor/field.panel.json';
import actionPanel from '../../../../schemas/page-editor/action.panel.json';
import searchPanel from '../../../../schemas/page-editor/search.panel.json';
import permsPanel from '../../../../schemas/page-editor/perms.panel.json';
import scopePanel from '../../../../schemas/page-editor/scope.panel.json';
import { PanelForm, type Option, type PanelDecl } from './PanelForm';
import { RelationsTab } from './RelationsTab';
import {
  addAction, addField, columnRows, fieldsOf, fieldTitle, hasSource, hideColumn, kindOf, LIST_NAME, moveAction, moveColumn, moveField, readField,
  removeAction, removeField, searchable, showColumn, updateAction, updateColumn, updatePerms, updateScope, updateSearch, writeField, type ActionList, type Decl, type FieldForm,
} from './model';

const panels = { column: columnPanel, field: fieldPanel, action: actionPanel, search: searchPanel, perms: permsPanel, scope: scopePanel } as unknown as Record<string, PanelDecl>;
const KIND_NAMES = Object.fromEntries(fieldPanel.schema.properties.kind.oneOf.map((o) => [o.const, o.title]));
const ACTION_NAMES = Object.fromEntries(actionPanel.schema.properties.action.oneOf.map((o) => [o.const, o.title]));

export interface VisualEditorProps {
  decl: Decl;
  onChange(next: Decl): void;
  readOnly?: boolean;
  /** dictionaries offered to columns and select fields */
  dicts: Option[];
  /** the dictionaries are still being fetched (the built-in ones are offered meanwhile) */
  dictsLoading?: boolean;
  /** dictionary items by type (a select field's value type follows its dictionary's values) */
  dictItems?: Record<string, { value: unknown }[]>;
  narrow?: boolean;
  /** the declaration's faults (validate.ts): a row with one is marked, its messages on hover */
  faults?: { pointer: string; message: string }[];
}

/** A red mark with the messages of the faults under any of these JSON pointers. */
function FaultMark({ faults, at }: { faults: { pointer: string; message: string }[]; at: string[] }) {
  const mine = faults.filter((f) => at.some((p) => f.pointer === p || f.pointer.startsWith(`${p}/`)));
  if (!mine.length) return null;
  return (
    <Tooltip title={mine.map((f) => f.message).join('；')}>
      <ExclamationCircleFilled style={{ color: '#ff4d4f' }} aria-label={mine.map((f) => f.message).join('；')} data-testid="ve-fault" />
    </Tooltip>
  );
}

/** A list row that can be dragged onto another (native drag and drop) and moved by its arrows (touch, keyboard). */
function Row({ id, index, count, selected, draggable, onSelect, onMove, children, extra, testId }: {
  id: string; index: number | null; count: number; selected: boolean; draggable: boolean; onSelect(): void; onMove(from: number, to: number): void; children: React.ReactNode; extra?: React.ReactNode; testId: string;
}) {
  const [over, setOver] = useState(false);
  const movable = draggable && index !== null;
  return (
    <div
      data-testid={testId}
      data-key={id}
      draggable={movable}
      onDragStart={(e) => { e.dataTransfer.setData('text/x-index', String(index)); e.dataTransfer.effectAllowed = 'move'; }}
      onDragOver={(e) => { if (movable) { e.preventDefault(); setOver(true); } }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const from = Number(e.dataTransfer.getData('text/x-index'));
        if (movable && Number.isInteger(from) && from !== index) onMove(from, index!);
      }}
      onClick={onSelect}
      style={{ display: 'flex', alignItems: 'center', gap: 6, padding: '3px 6px', cursor: 'pointer', borderRadius: 4, background: selected ? '#e6f4ff' : undefined, borderTop: over ? '2px solid #1677ff' : '2px solid transparent' }}
    >
      <HolderOutlined style={{ color: movable ? '#8c8c8c' : '#d9d9d9', cursor: movable ? 'grab' : 'default' }} aria-hidden />
      <div style={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'center', gap: 6, overflow: 'hidden' }}>{children}</div>
      {extra}
      {movable && (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={index === 0} aria-label="上移" onClick={() => onMove(index!, index! - 1)} />
          <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={index === count - 1} aria-label="下移" onClick={() => onMove(index!, index! + 1)} />
        </Space>
      )}
    </div>
  );
}

const listBox: React.CSSProperties = { border: '1px solid #f0f0f0', borderRadius: 6, padding: 4, marginBottom: 8, maxHeight: 260, overflow: 'auto' };

/**
 * 可视化: the page declaration edited in forms — columns, search, dialog fields, buttons, permissions — each panel
 * generated from its declaration in schemas/page-editor/. It edits the same declaration the JSON tab shows: every
 * change goes out as the next declaration at once, so switching tabs loses nothing.
 */
export function VisualEditor({ decl, onChange, readOnly, dicts, dictsLoading, dictItems = {}, narrow, faults = [] }: VisualEditorProps) {
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const [tab, setTab] = useState('columns');
  const source = hasSource(decl);
  const fieldOptions = useMemo(() => searchable(decl).map((f) => ({ value: f, label: `${fieldTitle(decl, f)}（${f}）` })), [decl]);
  const sources = { dicts, fields: fieldOptions };

  // ---- 列
  const rows = columnRows(decl);
  const [colKey, setColKey] = useState<string | null>(null);
  const colRow = rows.find((r) => r.key === colKey && r.index !== null) ?? null;
  const columns = (
    <div>
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 4 }}>勾选的列显示在表格中；拖动或用箭头调整顺序{source ? '；外部数据表页面的列来自表单字段' : ''}</Typography.Text>
      <div style={listBox} data-testid="ve-columns">
        {rows.map((r) => (
          <Row key={r.key} id={r.key} index={r.index} count={decl.columns.length} selected={r.key === colKey} draggable={!readOnly} testId={`ve-col-${r.key}`}
            onSelect={() => setColKey(r.key)} onMove={(a, b) => onChange(moveColumn(decl, a, b))}>
            <span onClick={(e) => e.stopPropagation()}>
              <Checkbox checked={r.index !== null} disabled={readOnly} aria-label={`显示「${r.label}」`}
                onChange={(e) => {
                  if (e.target.checked) {
                    onChange(showColumn(decl, r));
                    setColKey(r.key);
                  } else onChange(hideColumn(decl, r.index!));
                }} />
            </span>
            <Typography.Text ellipsis type={r.index === null ? 'secondary' : undefined}>{r.label}</Typography.Text>
            {r.index !== null && <FaultMark faults={faults} at={[`/columns/${r.index}`]} />}
            {r.field ? <Tag bordered={false}>{r.field}</Tag> : <Tag bordered={false} color="blue">{r.column?.type === 'index' || r.key === 'c:index' ? '序号列' : r.column?.type === 'actions' || r.key === 'c:actions' ? '操作列' : r.column?.type ?? ''}</Tag>}
          </Row>
        ))}
      </div>
      {colRow ? (
        <PanelForm panel={panels.column} value={colRow.column as unknown as Record<string, unknown>} ctx={{ sources, loading: dictsLoading ? ['dicts'] : [], readOnly, kind: colRow.column?.type ?? 'text', testId: 've-column-form' }}
          onChange={(c) => onChange(updateColumn(decl, colRow.index!, c))} />
      ) : (
        <Typography.Text type="secondary">点击一列编辑它的标题、宽度、格式、字典与固定</Typography.Text>
      )}
    </div>
  );

  // ---- 搜索
  const search = (
    <PanelForm panel={panels.search} value={(decl.search ?? {}) as Record<string, unknown>} ctx={{ sources, loading: dictsLoading ? ['dicts'] : [], readOnly, testId: 've-search-form' }} onChange={(c) => onChange(updateSearch(decl, c))} />
  );

  // ---- 表单字段
  const props = fieldsOf(decl);
  const names = Object.keys(props);
  const [fieldName, setFieldName] = useState<string | null>(null);
  useEffect(() => {
    if (fieldName !== null && !(fieldName in props)) setFieldName(null);
  }, [fieldName, props]);
  const current: FieldForm | null = fieldName && fieldName in props ? readField(decl, fieldName) : null;
  const fields = (
    <div>
      {source && <Alert type="info" showIcon style={{ marginBottom: 8 }} message="外部数据表的页面：字段来自表结构，字段名不能修改，也不能增删字段" />}
      <div style={listBox} data-testid="ve-fields">
        {names.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有表单字段" />}
        {names.map((n, i) => (
          <Row key={n} id={n} index={i} count={names.length} selected={n === fieldName} draggable={!readOnly} testId={`ve-field-${n}`}
            onSelect={() => setFieldName(n)} onMove={(a, b) => onChange(moveField(decl, a, b))}
            extra={!readOnly && !source && (
              <Tooltip title="删除字段"><Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除字段「${fieldTitle(decl, n)}」`} onClick={(e) => { e.stopPropagation(); onChange(removeField(decl, n)); }} /></Tooltip>
            )}>
            <Typography.Text ellipsis>{fieldTitle(decl, n)}</Typography.Text>
            <FaultMark faults={faults} at={[`/dialog/schema/properties/${esc(n)}`, `/dialog/defaults/${esc(n)}`]} />
            <Tag bordered={false}>{n}</Tag>
            <Tag bordered={false} color="geekblue">{KIND_NAMES[kindOf(props[n])]}</Tag>
          </Row>
        ))}
      </div>
      {!readOnly && !source && (
        <Button size="small" icon={<PlusOutlined />} style={{ marginBottom: 8 }} data-testid="ve-add-field"
          onClick={() => {
            const r = addField(decl);
            onChange(r.decl);
            setFieldName(r.name);
          }}>添加字段</Button>
      )}
      {current ? (
        <>
          <FieldName key={current.name} name={current.name} taken={names} disabled={readOnly || source}
            onRename={(to) => {
              onChange(writeField(decl, current.name, { ...current, name: to }, dictItems));
              setFieldName(to);
            }} />
          <PanelForm panel={panels.field} value={current as unknown as Record<string, unknown>} ctx={{ sources, loading: dictsLoading ? ['dicts'] : [], readOnly, kind: current.kind, omit: ['name'], testId: 've-field-form' }}
            onChange={(c) => onChange(writeField(decl, current.name, { ...current, ...c } as FieldForm, dictItems))} />
        </>
      ) : (
        <Typography.Text type="secondary">点击一个字段编辑它的类型、标签、占位提示、校验规则与默认值</Typography.Text>
      )}
    </div>
  );

  // ---- 按钮
  const [act, setAct] = useState<{ list: ActionList; index: number } | null>(null);
  const actionOf = act ? decl[act.list]?.[act.index] : undefined;
  const actionList = (list: ActionList) => {
    const items = decl[list] ?? [];
    return (
      <div key={list}>
        <Space style={{ justifyContent: 'space-between', width: '100%' }}>
          <Typography.Text strong>{LIST_NAME[list]}</Typography.Text>
          {!readOnly && <Button size="small" type="link" icon={<PlusOutlined />} data-testid={`ve-add-${list}`} onClick={() => { onChange(addAction(decl, list)); setAct({ list, index: items.length }); }}>添加</Button>}
        </Space>
        <div style={listBox}>
          {items.length === 0 && <Typography.Text type="secondary" style={{ padding: 4 }}>无</Typography.Text>}
          {items.map((a, i) => (
            <Row key={`${list}-${i}`} id={`${list}-${i}`} index={i} count={items.length} selected={act?.list === list && act.index === i} draggable={!readOnly} testId={`ve-${list}-${i}`}
              onSelect={() => setAct({ list, index: i })} onMove={(x, y) => { onChange(moveAction(decl, list, x, y)); setAct({ list, index: y }); }}
              extra={!readOnly && <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除按钮「${a.label ?? a.action}」`} onClick={(e) => { e.stopPropagation(); onChange(removeAction(decl, list, i)); setAct(null); }} />}>
              <Typography.Text ellipsis>{a.label || ACTION_NAMES[a.action]}</Typography.Text>
              <FaultMark faults={faults} at={[`/${list}/${i}`]} />
              <Tag bordered={false}>{ACTION_NAMES[a.action] ?? a.action}</Tag>
              {a.confirm && <Tag bordered={false} color="orange">需确认</Tag>}
            </Row>
          ))}
        </div>
      </div>
    );
  };
  const buttons = (
    <div>
      {actionList('toolbar')}
      {actionList('rowActions')}
      {act && actionOf ? (
        <PanelForm panel={panels.action} value={actionOf as unknown as Record<string, unknown>} ctx={{ readOnly, testId: 've-action-form' }} onChange={(c) => onChange(updateAction(decl, act.list, act.index, c))} />
      ) : (
        <Typography.Text type="secondary">点击一个按钮编辑它的动作、文字与确认文本</Typography.Text>
      )}
    </div>
  );

  // ---- 权限
  const perms = (
    <div>
      <Alert type="info" showIcon style={{ marginBottom: 8 }} message="自定义页面的权限由服务端按页面授予（发布时选择可见角色）；这里的权限串用于自带接口的页面，不填则用默认权限" />
      <PanelForm panel={panels.perms} value={(decl.perms ?? {}) as Record<string, unknown>} ctx={{ readOnly, testId: 've-perms-form' }} onChange={(c) => onChange(updatePerms(decl, c))} />
    </div>
  );

  // ---- 数据权限 (a page on a table: the columns that hold a row's owner and department; issue 34)
  const scope = (
    <div>
      <Alert type="info" showIcon style={{ marginBottom: 8 }} message="选了所属人列或所属部门列后，新增的记录自动写入创建人及其部门，每个用户只能查看和修改角色数据权限范围内的记录" />
      <PanelForm panel={panels.scope} value={(decl.source ?? {}) as Record<string, unknown>} ctx={{ sources, readOnly, testId: 've-scope-form' }} onChange={(c) => onChange(updateScope(decl, c))} />
    </div>
  );

  return (
    <div data-testid="visual-editor" style={{ padding: narrow ? 0 : '0 4px' }}>
      <Space wrap size={[12, 4]} style={{ marginBottom: 4 }}>
        <Space size={4}>
          <Typography.Text>页面标识</Typography.Text>
          <Tooltip title="菜单地址 /custom/标识：以小写字母开头，只含字母、数字、下划线和短横线">
            <Input size="small" style={{ width: 150 }} value={decl.id} disabled={readOnly} aria-label="页面标识" onChange={(e) => onChange({ ...decl, id: e.target.value })} />
          </Tooltip>
        </Space>
        <Space size={4}>
          <Typography.Text>页面标题</Typography.Text>
          <Input size="small" style={{ width: 150 }} value={decl.title} disabled={readOnly} aria-label="页面标题" onChange={(e) => onChange({ ...decl, title: e.target.value })} />
        </Space>
      </Space>
      <Tabs size="small" activeKey={tab} onChange={setTab} items={[
        { key: 'columns', label: <span>列 <FaultMark faults={faults} at={['/columns']} /></span>, children: columns },
        { key: 'search', label: <span>搜索 <FaultMark faults={faults} at={['/search']} /></span>, children: search },
        { key: 'fields', label: <span>表单字段 <FaultMark faults={faults} at={['/dialog']} /></span>, children: fields },
        { key: 'buttons', label: <span>按钮 <FaultMark faults={faults} at={['/toolbar', '/rowActions']} /></span>, children: buttons },
        { key: 'perms', label: <span>权限 <FaultMark faults={faults} at={['/perms']} /></span>, children: perms },
        // a page on a table: its data scope, related records and details, in one tab (the editor's column is narrow)
        ...(source
          ? [
              {
                key: 'scope',
                label: <span>数据表 <FaultMark faults={faults} at={['/source', '/dialog/details']} /></span>,
                children: (
                  <>
                    <Typography.Text strong>数据权限</Typography.Text>
                    {scope}
                    <RelationsTab decl={decl} onChange={onChange} readOnly={readOnly} />
                  </>
                ),
              },
            ]
          : []),
      ]} />
    </div>
  );
}

/** A field's name, renamed when typing ends (Enter or leaving the box), refused when taken or malformed. */
function FieldName({ name, taken, disabled, onRename }: { name: string; taken: string[]; disabled?: boolean; onRename(to: string): void }) {
  const [text, setText] = useState(name);
  const fault = text === name ? null
    : !/^[A-Za-z_][A-Za-z0-9_]*$/.test(text) ? '字段名只能含字母、数字和下划线，且不以数字开头'
      : taken.includes(text) ? `字段名「${text}」已被其他字段使用` : null;
  const commit = () => {
    if (text !== name && !fault) onRename(text);
  };
  return (
    <Form size="small" labelCol={{ flex: '112px' }} colon={false} style={{ maxWidth: 560 }}>
      <Form.Item label="字段名" validateStatus={fault ? 'error' : undefined} help={fault ?? undefined} tooltip="保存到记录里的键" style={{ marginBottom: 8 }}>
        <Input value={text} disabled={disabled} aria-label="字段名" onChange={(e) => setText(e.target.value)} onBlur={commit} onPressEnter={commit} />
      </Form.Item>
    </Form>
  );
}
