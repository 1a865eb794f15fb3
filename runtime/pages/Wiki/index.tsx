// Wiki (spec part 1 §2 "Wiki", §4 view → edit → view): the group tree on the left; on the right a
// document in read mode (title, creator, created time, last modifier, last modified time, the body as the
// server stored it — sanitized there) with Edit and Delete, or in edit mode (title ≤ 100, rich text,
// Save, Preview, and Cancel when the document already has an id). Leaving unsaved edits asks first.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { App, Button, Card, Descriptions, Empty, Form, Input, Modal, Result, Space, Spin, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, FileAddOutlined, SaveOutlined } from '@ant-design/icons';
import { usePermission } from '../../core/permission';
import { settle } from '../../core/settle';
import { askDiscard, idParam, useDirty, useLeaveGuard } from '../../ui/leave';
import { isDocument, wikiApi, type WikiDoc, type WikiNode } from './api';
import { SplitPane } from '../../ui/SplitPane';
import { TREE_WIDTH, WikiTree } from './WikiTree';
import './wiki.css';

const RichEditor = lazy(() => import('./RichEditor'));

export const TITLE_MAX = 100;
const EDIT_PERM = ['doc:wiki:edit'];

interface Draft {
  id?: number;
  parentId: number;
  title: string;
  html: string;
  revision?: number;
}
interface GroupDialog {
  id?: number;
  parentId: number;
  title: string;
}

/** The stored body, shown as the server sanitized it. */
function Body({ html }: { html: string }) {
  if (!html || html === '<p><br></p>') return <Typography.Text type="secondary">（无正文）</Typography.Text>;
  return <div className="wiki-body" data-testid="wiki-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

export default function Wiki() {
  const { message, modal } = App.useApp();
  const can = usePermission();
  const canEdit = can(EDIT_PERM);
  const [params, setParams] = useSearchParams();
  const selected = idParam(`?${params.toString()}`);
  const [nodes, setNodes] = useState<WikiNode[]>([]);
  const [treeLoading, setTreeLoading] = useState(true);
  const [doc, setDoc] = useState<WikiDoc | null>(null);
  const [docState, setDocState] = useState<'idle' | 'loading' | 'missing'>('idle');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<{ title: string; html: string } | null>(null);
  const [group, setGroup] = useState<GroupDialog | null>(null);
  const [groupSaving, setGroupSaving] = useState(false);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [groupForm] = Form.useForm<{ title: string }>();
  const { dirty, mark } = useDirty(draft ? { title: draft.title, html: draft.html } : null);

  const node = useMemo(() => nodes.find((n) => n.id === selected) ?? null, [nodes, selected]);

  const reloadTree = useCallback(async () => {
    setTreeLoading(true);
    try {
      setNodes(await wikiApi.tree());
    } catch {
      /* the request layer showed why */
    } finally {
      setTreeLoading(false);
    }
  }, []);
  useEffect(() => void reloadTree(), [reloadTree]);

  const select = useCallback((id: number | null) => setParams(id ? { id: String(id) } : {}, { replace: true }), [setParams]);

  // the selected document is read whenever the selection changes (and after a save)
  const loadDoc = useCallback(async (id: number) => {
    setDocState('loading');
    try {
      setDoc(await wikiApi.get(id));
      setDocState('idle');
    } catch {
      setDoc(null);
      setDocState('missing');
    }
  }, []);
  useEffect(() => {
    if (selected == null || (node && !isDocument(node))) {
      setDoc(null);
      setDocState('idle');
      return;
    }
    if (!treeLoading && !node) {
      setDoc(null);
      setDocState('missing');
      return;
    }
    if (node && doc?.id !== selected) void loadDoc(selected);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, node, treeLoading]);

  /** Runs `go` at once, or after the user agrees to drop unsaved edits. */
  const leaveEdit = (go: () => void) => {
    const done = () => {
      setDraft(null);
      mark(null);
      go();
    };
    if (!(draft && dirty)) return done();
    // the app's one question (ui/leave.ts): 取消, 不保存 or 保存 (then go on once saved)
    void askDiscard(modal, { canSave: true }).then(async (a) => {
      if (a === 'discard') done();
      else if (a === 'save' && (await save())) go();
    });
  };

  const startEdit = (d: Draft) => {
    setTitleError(null);
    setDraft(d);
    mark({ title: d.title, html: d.html }); // refined by the editor's own reading of the body when it is ready
  };

  const save = async (): Promise<boolean> => {
    if (!draft) return false;
    const title = draft.title.trim();
    const tooLong = [...title].length > TITLE_MAX;
    if (!title || tooLong) {
      setTitleError(title ? `标题长度不能超过${TITLE_MAX}个字符` : '请输入标题');
      return false;
    }
    setSaving(true);
    try {
      const id = await wikiApi.save({ id: draft.id, parentId: draft.parentId, title, docContent: draft.html, revision: draft.revision });
      message.success('保存成功');
      setDraft(null);
      mark(null);
      await reloadTree();
      select(id);
      await loadDoc(id);
      return true;
    } catch {
      /* the request layer showed why; the edits stay */
      return false;
    } finally {
      setSaving(false);
    }
  };

  // a document being edited: leaving the wiki, closing its tab or reloading asks first
  useLeaveGuard(draft !== null && dirty, {
    save,
    discard: () => {
      setDraft(null);
      mark(null);
    },
  });

  const showPreview = async () => {
    if (!draft) return;
    try {
      setPreview({ title: draft.title.trim() || '（无标题）', html: await wikiApi.preview(draft.html) });
    } catch {
      /* shown by the request layer */
    }
  };

  /** 确定要删除【title】吗？ then `remove`, 删除成功 and `after`; a refusal (a group not empty) is shown by the request layer. */
  const confirmRemove = (title: string, remove: () => Promise<unknown>, after: () => void) =>
    modal.confirm({
      title: '提示',
      content: `确定要删除【${title}】吗？`,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      // a refusal closes the box too: settle leaves the server's message (shown by the request layer) as the answer
      onOk: settle(async () => {
        await remove();
        message.success('删除成功');
        after();
        await reloadTree();
      }),
    });

  const removeDoc = (d: WikiDoc) =>
    confirmRemove(d.title, () => wikiApi.remove(d.id), () => {
      setDoc(null);
      select(d.parentId || null);
    });

  const removeGroup = (g: WikiNode) =>
    leaveEdit(() => confirmRemove(g.title, () => wikiApi.deleteGroup(g.id), () => selected === g.id && select(null)));

  const openGroup = (g: GroupDialog) => {
    setGroup(g);
    groupForm.setFieldsValue({ title: g.title });
  };
  const saveGroup = async () => {
    if (!group) return;
    const values = await groupForm.validateFields().catch(() => null);
    if (!values) return; // the form shows what is wrong
    setGroupSaving(true);
    try {
      const id = await wikiApi.saveGroup({ id: group.id, parentId: group.parentId, title: values.title.trim() });
      message.success('保存成功');
      setGroup(null);
      groupForm.resetFields();
      await reloadTree();
      // a new group is selected, so its parents open and it can be filled at once
      if (!group.id && !draft) select(id);
    } catch {
      /* shown by the request layer */
    } finally {
      setGroupSaving(false);
    }
  };

  const right = () => {
    if (draft) {
      return (
        <div className="wiki-edit" data-testid="wiki-edit">
          <Form layout="vertical" onFinish={() => void save()}>
            <Form.Item label="标题" required validateStatus={titleError ? 'error' : undefined} help={titleError ?? undefined}>
              <Input
                aria-label="标题"
                placeholder="请输入标题"
                maxLength={TITLE_MAX}
                showCount
                value={draft.title}
                onChange={(e) => {
                  setTitleError(e.target.value.trim() ? null : '请输入标题');
                  setDraft((d) => (d ? { ...d, title: e.target.value } : d));
                }}
              />
            </Form.Item>
          </Form>
          <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} tip="编辑器加载中…" />}>
            <RichEditor
              key={draft.id ?? `new-${draft.parentId}`}
              initialHtml={draft.html}
              height="calc(100vh - 430px)"
              onReady={(html) => {
                setDraft((d) => (d ? { ...d, html } : d));
                mark({ title: draft.title, html });
              }}
              onChange={(html) => setDraft((d) => (d && d.html !== html ? { ...d, html } : d))}
              uploadImage={wikiApi.uploadImage}
              onError={(m) => message.error(m)}
            />
          </Suspense>
          <Space style={{ marginTop: 12 }}>
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>
              保存
            </Button>
            <Button icon={<EyeOutlined />} onClick={() => void showPreview()}>
              预览
            </Button>
            {draft.id != null && <Button onClick={() => leaveEdit(() => undefined)}>取消</Button>}
            {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
          </Space>
        </div>
      );
    }
    if (selected == null) return <Empty style={{ marginTop: 120 }} description={nodes.length || treeLoading ? '请在左侧选择文档' : canEdit ? '还没有文档：先新建一个分组' : '暂无文档'} />;
    if (node && !isDocument(node)) {
      const children = nodes.filter((n) => n.parentId === node.id);
      return (
        <div data-testid="wiki-folder">
          <Typography.Title level={4}>{node.title}</Typography.Title>
          <Typography.Paragraph type="secondary">
            分组，含 {children.filter(isDocument).length} 篇文档、{children.filter((c) => !isDocument(c)).length} 个子分组 · 创建人 {node.createUser ?? '-'} · {node.createTime}
          </Typography.Paragraph>
          {canEdit && (
            <Button type="primary" icon={<FileAddOutlined />} onClick={() => startEdit({ parentId: node.id, title: '', html: '' })}>
              新建文档
            </Button>
          )}
        </div>
      );
    }
    if (docState === 'missing') return <Result status="404" title="文档不存在" subTitle="它可能已被删除，请在左侧重新选择" />;
    if (!doc || docState === 'loading') return <Spin style={{ display: 'block', marginTop: 120 }} />;
    return (
      <article data-testid="wiki-view">
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 12 }}>
          <Typography.Title level={3} style={{ marginTop: 0, wordBreak: 'break-all' }}>
            {doc.title}
          </Typography.Title>
          {canEdit && (
            <Space>
              <Button icon={<EditOutlined />} onClick={() => startEdit({ id: doc.id, parentId: doc.parentId, title: doc.title, html: doc.docContent, revision: doc.revision })}>
                编辑
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={() => removeDoc(doc)}>
                删除
              </Button>
            </Space>
          )}
        </div>
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16, maxWidth: 720 }}>
          <Descriptions.Item label="创建人">{doc.createUser ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="创建时间">{doc.createTime}</Descriptions.Item>
          <Descriptions.Item label="最后修改人">{doc.updateUser ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="最后修改时间">{doc.updateTime}</Descriptions.Item>
        </Descriptions>
        <Body html={doc.docContent} />
      </article>
    );
  };

  return (
    <Card size="small" title="Wiki文档" styles={{ body: { padding: 0 } }}>
      {/* on a phone the tree waits in a drawer; picking a node (or starting a document) closes it */}
      <SplitPane
        className="wiki-layout"
        sideTitle="文档目录"
        drawerWidth={TREE_WIDTH + 80}
        selection={`${selected}|${draft ? (draft.id ?? `new-${draft.parentId}`) : ''}`}
        side={
          <WikiTree
            nodes={nodes}
            loading={treeLoading}
            selected={selected}
            canEdit={canEdit}
            onSelect={(n) => n.id !== selected && leaveEdit(() => select(n.id))}
            onAddGroup={(parentId) => openGroup({ parentId, title: '' })}
            onAddDoc={(parentId) => leaveEdit(() => {
              select(parentId);
              startEdit({ parentId, title: '', html: '' });
            })}
            onRenameGroup={(g) => openGroup({ id: g.id, parentId: g.parentId, title: g.title })}
            onDeleteGroup={removeGroup}
          />
        }
      >
        <div className="wiki-main">{right()}</div>
      </SplitPane>
      <Modal
        title={group?.id ? '重命名分组' : '新建分组'}
        open={group !== null}
        width={500}
        okText="确定"
        cancelText="取消"
        confirmLoading={groupSaving}
        onOk={() => void saveGroup()}
        onCancel={() => {
          setGroup(null);
          groupForm.resetFields();
        }}
        destroyOnHidden
      >
        <Form form={groupForm} layout="vertical" onFinish={() => void saveGroup()}>
          {group && group.parentId > 0 && <Typography.Paragraph type="secondary">上级分组：{nodes.find((n) => n.id === group.parentId)?.title}</Typography.Paragraph>}
          <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入标题' }, { max: TITLE_MAX, message: `标题长度不能超过${TITLE_MAX}个字符` }]}>
            <Input aria-label="分组标题" placeholder="请输入标题" maxLength={TITLE_MAX} showCount autoFocus />
          </Form.Item>
        </Form>
      </Modal>
      <Modal title={`预览：${preview?.title ?? ''}`} open={preview !== null} width={900} footer={null} onCancel={() => setPreview(null)} destroyOnHidden>
        <div data-testid="wiki-preview">{preview && <Body html={preview.html} />}</div>
      </Modal>
    </Card>
  );
}
