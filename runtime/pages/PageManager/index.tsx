import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Checkbox, Empty, Form, Input, List, Modal, Space, Switch, Tabs, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined, DatabaseOutlined, DeleteOutlined, HistoryOutlined, PlusOutlined, RedoOutlined, ReloadOutlined, SaveOutlined, SendOutlined, UndoOutlined } from '@ant-design/icons';
import { CrudPageWith, builtinPages, coreServices, type PageDeclaration } from '../../crud';
import { builtinDicts, useDict } from '../../core/dicts';
import { notifyMenusChanged } from '../../core/menus';
import { ApiError } from '../../core/request';
import { settle } from '../../core/settle';
import supplier from '../../../schemas/examples/supplier.page.json';
import { lowcodePageCalls } from '../../../common/lowcode';
import { checkDeclaration, type Fault } from './validate';
import { JsonEditor, modelPath } from './JsonEditor';
import { previewServices } from './preview';
import { pagesApi, type CustomPage } from './api';
import { GenerateDialog } from './GenerateDialog';
import { SplitPane } from '../../ui/SplitPane';
import { useNarrow } from '../../ui/narrow';
import { askDiscard, useLeaveGuard } from '../../ui/leave';
import { VisualEditor } from './visual/VisualEditor';
import { renamedText } from './visual/faults';
import { HistoryDrawer } from '../../ui/history/HistoryDrawer';

const BUILTIN_IDS = Object.keys(builtinPages);
const BUILTIN_DICTS = Object.keys(builtinDicts).map((t) => ({ value: t, label: t }));

/** The declaration text as an object the visual editor can work on, or null (not JSON, or no columns list). */
function parseForVisual(text: string): PageDeclaration | null {
  try {
    const d = JSON.parse(text) as PageDeclaration;
    return d && typeof d === 'object' && !Array.isArray(d) && Array.isArray(d.columns) ? d : null;
  } catch {
    return null;
  }
}
const pretty = (v: unknown) => JSON.stringify(v, null, 2);
const blank: PageDeclaration = {
  $schema: '../meta/page.schema.json',
  id: 'newPage',
  title: '新页面',
  nameField: 'name',
  search: { placeholder: '请输入名称', maxLength: 20, fields: ['name'] },
  columns: [
    { title: '序号', type: 'index', width: 60 },
    { title: '名称', field: 'name', sortable: true },
    { title: '操作', type: 'actions', width: 160 },
  ],
  toolbar: [{ action: 'add', label: '新增' }],
  rowActions: [{ action: 'edit', label: '编辑' }, { action: 'delete', label: '删除' }],
  dialog: { schema: { type: 'object', properties: { name: { type: 'string', title: '名称', maxLength: 50, 'x-validator': [{ required: true, message: '请输入名称' }] } } } },
};

/** What is open in the editor: a built-in (read-only) or a custom page (saved or draft). */
type Selection = { kind: 'builtin'; id: string } | { kind: 'custom'; page: CustomPage };

/** 页面管理: built-in and custom page declarations, a schema-aware JSON editor and a live preview. */
export default function PageManager() {
  const { message, modal } = App.useApp();
  const roleItems = useDict('ROLE_TYPE');
  const [custom, setCustom] = useState<CustomPage[]>([]);
  const [loading, setLoading] = useState(false);
  const [sel, setSel] = useState<Selection | null>(null);
  const [text, setText] = useState('');
  const textRef = useRef(text);
  textRef.current = text;
  const [debounced, setDebounced] = useState('');
  const [faults, setFaults] = useState<Fault[]>([]);
  const [saving, setSaving] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [generateOpen, setGenerateOpen] = useState(false);
  const narrow = useNarrow();
  // 可视化 (forms) or JSON: both edit `text`; a custom page opens in the forms, a built-in one in its JSON
  const [editorTab, setEditorTab] = useState<'visual' | 'json'>('visual');
  // the visual editor's undo / redo: texts before (and after) its changes; JSON typing has monaco's own undo
  const [history, setHistory] = useState<{ past: string[]; future: string[] }>({ past: [], future: [] });
  // the dictionaries of 字典管理 for the pickers; the built-in ones until (or unless) they answer
  const [dictOptions, setDictOptions] = useState(BUILTIN_DICTS);
  const [dictsLoading, setDictsLoading] = useState(true);
  useEffect(() => {
    let live = true;
    pagesApi.dictTypes().then((list) => {
      if (live && list.length) setDictOptions(list.map((d) => ({ value: d.type, label: d.name && d.name !== d.type ? `${d.name}（${d.type}）` : d.type })));
    }, () => undefined).finally(() => live && setDictsLoading(false));
    return () => {
      live = false;
    };
  }, []);
  const dictTypes = useMemo(() => dictOptions.map((d) => d.value), [dictOptions]);
  // the text as opened or last saved: a custom page whose text differs has unsaved edits
  const [baseline, setBaseline] = useState('');
  const dirty = sel?.kind === 'custom' && text !== baseline;
  // a failed call or a refused save: shown in a box that stays until dismissed (the page manager's calls are silent)
  const [failure, setFailure] = useState<{ title: string; lines: string[] } | null>(null);
  const showFailure = useCallback((e: unknown, title: string) => {
    if (e instanceof ApiError && e.status === 2) return; // signed out: the request layer's box says so
    const msg = e instanceof Error && e.message ? e.message : '操作失败';
    // 页面声明不合法：a；b；c → one line per fault
    const faults = /^([^：]*不合法)：(.+)$/s.exec(msg);
    if (!faults) return setFailure({ title, lines: [msg] });
    // each field named as the editor names it (列「城市」的字段…), read from the declaration being edited
    let data: unknown = null;
    try {
      data = JSON.parse(textRef.current);
    } catch {
      data = null;
    }
    const lines = faults[2].split('；').map((l) => renamedText(l, data));
    setFailure({ title: `${title}：${faults[1]}（${lines.length} 处）`, lines });
  }, []);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setCustom(await pagesApi.search());
    } catch (e) {
      setCustom([]);
      showFailure(e, '页面列表加载失败');
    } finally {
      setLoading(false);
    }
  }, [showFailure]);
  useEffect(() => void reload(), [reload]);

  // validate and preview 500 ms after typing stops (spec: editor delay 500 ms)
  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), 500);
    return () => clearTimeout(t);
  }, [text]);
  const readOnly = sel?.kind === 'builtin';
  const checked = useMemo(() => (debounced ? checkDeclaration(debounced, readOnly ? [] : BUILTIN_IDS, readOnly ? undefined : dictTypes) : null), [debounced, readOnly, dictTypes]);
  const visualDecl = useMemo(() => (sel ? parseForVisual(text) : null), [sel, text]);
  const visualChange = (next: PageDeclaration) => {
    setHistory((h) => ({ past: [...h.past.slice(-99), text], future: [] }));
    setText(pretty(next));
  };
  const undo = () => {
    const prev = history.past[history.past.length - 1];
    if (prev === undefined) return;
    setHistory({ past: history.past.slice(0, -1), future: [text, ...history.future] });
    setText(prev);
  };
  const redo = () => {
    const next = history.future[0];
    if (next === undefined) return;
    setHistory({ past: [...history.past, text], future: history.future.slice(1) });
    setText(next);
  };
  const [preview, setPreview] = useState<PageDeclaration | null>(null);
  useEffect(() => {
    if (!checked) return;
    if (checked.ok) {
      // a custom page previews as the server will serve it: with the record store's calls and permissions
      setPreview(readOnly ? checked.decl : { ...checked.decl, ...lowcodePageCalls(checked.decl.id ?? '', checked.decl.source) });
      setFaults([]);
    } else setFaults(checked.faults);
  }, [checked, readOnly]);

  const open = (s: Selection, asked = false) => {
    // unsaved edits of the open page are not dropped silently (the app's one question, ui/leave.ts)
    if (dirty && !asked) {
      void askDiscard(modal, { canSave: true }).then(async (a) => {
        if (a === 'discard' || (a === 'save' && (await save()))) open(s, true);
      });
      return;
    }
    const decl = s.kind === 'builtin' ? builtinPages[s.id] : s.page.declaration;
    const t = pretty(decl);
    setSel(s);
    setText(t);
    setBaseline(t);
    setHistory({ past: [], future: [] });
    setEditorTab(s.kind === 'builtin' ? 'json' : 'visual');
    setDebounced(t);
    setFaults([]);
    setPreview(null);
  };
  // a stored page's declaration is fetched on opening: the list shows it is loading meanwhile
  const [opening, setOpening] = useState(false);
  const openCustom = async (p: CustomPage) => {
    setOpening(true);
    try {
      open({ kind: 'custom', page: p.declaration || p.id === undefined ? p : await pagesApi.get(p.id) });
    } catch (e) {
      showFailure(e, `页面【${p.title}】打开失败`);
    } finally {
      setOpening(false);
    }
  };
  const newDraft = (decl: PageDeclaration) => open({ kind: 'custom', page: { pageKey: decl.id, title: decl.title, declaration: decl, published: false, roles: ['sys_admin'] } });

  const current = sel?.kind === 'custom' ? sel.page : null;
  // 历史版本 of the open page (issue 37): a restore reads the page again (nothing unsaved is lost: it asks first)
  const [historyOpen, setHistoryOpen] = useState(false);
  const editingDecl = useMemo(() => {
    if (!dirty) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }, [dirty, text]);
  const reopen = async () => {
    if (!current?.id) return;
    const page = await pagesApi.get(current.id);
    open({ kind: 'custom', page });
  };

  /** Validates, then stores; `patch` carries the publishing choice. */
  const save = async (patch: Partial<CustomPage> = {}) => {
    if (!current) return false;
    const r = checkDeclaration(text, BUILTIN_IDS, dictTypes);
    if (!r.ok) {
      setFaults(r.faults);
      setFailure({ title: `声明有 ${r.faults.length} 处错误，未保存`, lines: ['请按下方「声明校验未通过」中列出的字段修改后再保存'] });
      return false;
    }
    setFailure(null);
    setSaving(true);
    try {
      const page: CustomPage = { ...current, ...patch, pageKey: r.decl.id, title: r.decl.title, declaration: r.decl };
      const id = await pagesApi.save(page);
      // the save re-reads the table on the data source as it is now: a changed data source is confirmed by it
      const saved = { ...page, sourceChanged: false, id: page.id ?? (typeof id === 'number' || typeof id === 'string' ? id : undefined) };
      setSel({ kind: 'custom', page: saved });
      setBaseline(text);
      message.success(patch.published ? '发布成功，菜单中已可见' : '保存成功');
      // a published page's entry (or an unpublished one's absence) shows in the menu at once
      notifyMenusChanged();
      void reload();
      return true;
    } catch (e) {
      showFailure(e, patch.published === undefined ? '保存失败' : '发布失败');
      return false;
    } finally {
      setSaving(false);
    }
  };

  // leaving the page manager, closing its tab or reloading with unsaved edits asks first
  useLeaveGuard(dirty, { save: () => save(), discard: () => setBaseline(text) });

  const remove = async () => {
    if (!current?.id) return;
    // the records go with the page: say how many, counted now
    let count: number;
    try {
      count = (await pagesApi.get(current.id)).recordCount ?? 0;
    } catch (e) {
      showFailure(e, '删除失败');
      return;
    }
    modal.confirm({
      title: '系统提示',
      content: `${count > 0 ? `该页面有 ${count} 条数据，将与页面及其菜单一起移入回收站。` : '页面及其菜单将移入回收站。'}确定删除【${current.title}】吗？（可在 可视化 › 回收站 中还原）`,
      okButtonProps: count > 0 ? { danger: true } : undefined,
      onOk: settle(async () => {
        try {
          await pagesApi.remove(current.id!);
        } catch (e) {
          showFailure(e, '删除失败');
          return;
        }
        setFailure(null);
        message.success('删除成功');
        notifyMenusChanged();
        setSel(null);
        setText('');
        void reload();
      }),
    });
  };

  const editorHeight = faults.length ? 'calc(100vh - 450px)' : 'calc(100vh - 340px)';
  const dictsForPreview = builtinDicts as Record<string, { value: unknown }[]>;
  const services = useMemo(
    () => (preview ? previewServices(coreServices, preview, dictsForPreview, (t) => message.info(t)) : null),
    [preview, dictsForPreview, message],
  );

  const listItem = (key: string, title: string, extra: React.ReactNode, active: boolean, onClick: () => void) => (
    <List.Item key={key} onClick={onClick} style={{ cursor: 'pointer', padding: '6px 10px', background: active ? '#e6f4ff' : undefined }} data-testid={`page-item-${key}`}>
      <Space size={4} style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text ellipsis style={{ maxWidth: 130 }}>{title}</Typography.Text>
        {extra}
      </Space>
    </List.Item>
  );

  return (
    // on a phone the page list waits in a drawer; opening a page closes it
    <SplitPane
      style={{ display: 'flex', gap: 12 }}
      sideTitle="页面列表"
      drawerWidth={320}
      selection={sel ? (sel.kind === 'builtin' ? sel.id : `custom:${sel.page.pageKey}`) : null}
      side={
        <div style={{ width: 280, flex: 'none', borderRight: '1px solid #f0f0f0', paddingRight: 8 }}>
          <Space style={{ marginBottom: 8 }} wrap>
            <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => newDraft(blank)}>新建页面</Button>
            <Button size="small" onClick={() => newDraft(supplier as PageDeclaration)}>示例：供应商</Button>
            <Button size="small" icon={<DatabaseOutlined />} onClick={() => setGenerateOpen(true)} data-testid="pm-generate">从数据表生成</Button>
            <Tooltip title="刷新"><Button size="small" icon={<ReloadOutlined />} onClick={() => void reload()} /></Tooltip>
          </Space>
          <Typography.Text type="secondary" style={{ display: 'block' }}>自定义页面</Typography.Text>
          <List size="small" loading={loading || opening} locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无自定义页面" /> }}
            dataSource={custom}
            renderItem={(p) => listItem(`custom-${p.pageKey}`, `${p.title}（${p.pageKey}）`,
              <Space size={2}>
                {p.sourceChanged && <Tooltip title="数据源已变更：页面停用，确认后重新保存"><Tag color="error">数据源已变更</Tag></Tooltip>}
                {p.published ? <Tag color="success">已发布</Tag> : <Tag>草稿</Tag>}
              </Space>,
              current?.pageKey === p.pageKey, () => void openCustom(p))}
          />
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>内置页面（只读）</Typography.Text>
          <List size="small" dataSource={BUILTIN_IDS}
            renderItem={(id) => listItem(`builtin-${id}`, `${builtinPages[id].title}（${id}）`, <Tag color="blue">内置</Tag>,
              sel?.kind === 'builtin' && sel.id === id, () => open({ kind: 'builtin', id }))}
          />
        </div>
      }
    >
      <div style={{ flex: 1, minWidth: 0 }}>
        {failure && (
          <Alert
            type="error"
            showIcon
            closable
            onClose={() => setFailure(null)}
            style={{ marginBottom: 8 }}
            data-testid="pm-error"
            message={failure.title}
            description={failure.lines.length > 1 ? <ul style={{ margin: 0, paddingLeft: 18, maxHeight: 120, overflow: 'auto' }}>{failure.lines.map((l, i) => <li key={i}>{l}</li>)}</ul> : failure.lines[0]}
          />
        )}
        {!sel ? (
          <Empty style={{ marginTop: 120 }} description="从左侧选择页面，或新建页面" />
        ) : (
          <>
            <Space style={{ marginBottom: 8 }} wrap>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {sel.kind === 'builtin' ? `${builtinPages[sel.id].title}（内置，只读）` : current?.id ? `${current.title}` : '未保存的新页面'}
              </Typography.Title>
              {readOnly ? (
                <Button icon={<CopyOutlined />} onClick={() => newDraft({ ...builtinPages[sel.id], id: `${sel.id}Copy`, title: `${builtinPages[sel.id].title}副本` })}>复制为自定义页面</Button>
              ) : (
                <>
                  <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="pm-save">保存</Button>
                  <Button icon={<SendOutlined />} onClick={() => setPublishOpen(true)} data-testid="pm-publish">发布</Button>
                  {current?.id !== undefined && <Button icon={<HistoryOutlined />} onClick={() => setHistoryOpen(true)} data-testid="pm-history">历史版本</Button>}
                  {current?.id !== undefined && <Button danger icon={<DeleteOutlined />} onClick={() => void remove()}>删除</Button>}
                </>
              )}
            </Space>
            {current?.sourceChanged && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 8 }}
                data-testid="pm-source-changed"
                message="数据源已变更，页面已停用"
                description={`页面所在的数据源【${String(current.declaration?.source?.dsName ?? current.declaration?.source?.dsId ?? '')}】在页面保存后改过类型、地址、端口、数据库或账号。用户现在使用该页面会被拒绝。请确认数据源指向的是正确的数据库，然后保存页面：保存会按数据源现在的表重新读取字段并恢复页面。`}
                action={<Button size="small" type="primary" loading={saving} onClick={() => void save()} data-testid="pm-confirm-source">确认并保存</Button>}
              />
            )}
            {faults.length > 0 && (
              <Alert
                type="error"
                showIcon
                style={{ marginBottom: 8 }}
                message={`声明校验未通过（${faults.length} 处）`}
                description={<ul style={{ margin: 0, paddingLeft: 18, maxHeight: 96, overflow: 'auto' }} data-testid="pm-faults">{faults.map((f, i) => <li key={i}>{f.message}</li>)}</ul>}
              />
            )}
            {/* on a phone the preview goes under the editor */}
            <div style={{ display: 'flex', gap: 12, alignItems: 'stretch', flexWrap: 'wrap' }}>
              <div style={{ flex: narrow ? '1 1 100%' : '0 0 42%', minWidth: 0 }}>
                <Tabs
                  size="small"
                  activeKey={editorTab}
                  onChange={(k) => setEditorTab(k as 'visual' | 'json')}
                  style={{ marginTop: -8 }}
                  tabBarExtraContent={editorTab === 'visual' && !readOnly ? (
                    <Space size={0}>
                      <Tooltip title="撤销"><Button type="text" size="small" icon={<UndoOutlined />} disabled={!history.past.length} onClick={undo} aria-label="撤销" data-testid="ve-undo" /></Tooltip>
                      <Tooltip title="重做"><Button type="text" size="small" icon={<RedoOutlined />} disabled={!history.future.length} onClick={redo} aria-label="重做" data-testid="ve-redo" /></Tooltip>
                    </Space>
                  ) : undefined}
                  items={[
                    {
                      key: 'visual',
                      label: '可视化',
                      children: (
                        <div style={{ height: narrow ? undefined : editorHeight, overflow: 'auto' }}>
                          {visualDecl ? (
                            <VisualEditor decl={visualDecl} onChange={visualChange} readOnly={readOnly} faults={faults} dicts={dictOptions} dictsLoading={dictsLoading} dictItems={builtinDicts as Record<string, { value: unknown }[]>} narrow={narrow} />
                          ) : (
                            <Alert type="warning" showIcon message="JSON 不完整，无法用表单编辑" description="请先在 JSON 中修正语法错误（见上方的校验结果），再回到可视化编辑" action={<Button size="small" onClick={() => setEditorTab('json')}>去 JSON</Button>} />
                          )}
                        </div>
                      ),
                    },
                    {
                      key: 'json',
                      label: 'JSON',
                      children: <JsonEditor value={text} onChange={setText} readOnly={readOnly} path={modelPath(sel.kind === 'builtin' ? sel.id : (current?.pageKey ?? 'draft'))} height={editorHeight} />,
                    },
                  ]}
                />
              </div>
              <div style={{ flex: 1, minWidth: 0, maxHeight: faults.length ? 'calc(100vh - 410px)' : 'calc(100vh - 300px)', border: '1px dashed #d9d9d9', borderRadius: 6, padding: 12, overflow: 'auto' }} data-testid="pm-preview">
                <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>预览（示例数据，操作不提交）</Typography.Text>
                {preview && services ? <CrudPageWith declaration={preview} services={services} /> : <Empty description="声明通过校验后显示预览" />}
              </div>
            </div>
          </>
        )}
      </div>
      <PublishDialog
        open={publishOpen}
        page={current}
        roles={roleItems.map((r) => ({ value: String(r.value), label: r.label }))}
        onCancel={() => setPublishOpen(false)}
        onOk={async (published, roles) => {
          if (await save({ published, roles })) setPublishOpen(false);
        }}
      />
      {current?.id !== undefined && (
        <HistoryDrawer kind="page" itemKey={current.pageKey} open={historyOpen} onClose={() => setHistoryOpen(false)} editing={editingDecl} onRestored={() => void reopen()} />
      )}
      <GenerateDialog open={generateOpen} onClose={() => setGenerateOpen(false)} onGenerated={(decl) => newDraft(decl)} />
    </SplitPane>
  );
}

function PublishDialog({ open, page, roles, onOk, onCancel }: { open: boolean; page: CustomPage | null; roles: { value: string; label: string }[]; onOk(published: boolean, roles: string[]): Promise<void>; onCancel(): void }) {
  const [form] = Form.useForm<{ published: boolean; roles: string[] }>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) form.setFieldsValue({ published: true, roles: page?.roles?.length ? page.roles : ['sys_admin'] });
  }, [open, page, form]);
  return (
    <Modal
      open={open}
      title="发布页面"
      width={500}
      onCancel={onCancel}
      confirmLoading={busy}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
      onOk={settle(async () => {
        const v = await form.validateFields();
        setBusy(true);
        try {
          await onOk(v.published, v.roles);
        } finally {
          setBusy(false);
        }
      })}
    >
      <Form form={form} labelCol={{ span: 5 }} preserve={false}>
        <Form.Item name="published" label="发布" valuePropName="checked"><Switch checkedChildren="发布" unCheckedChildren="下线" /></Form.Item>
        <Form.Item name="roles" label="可见角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Checkbox.Group options={roles} />
        </Form.Item>
        <Input type="hidden" />
      </Form>
    </Modal>
  );
}
