// The screen designer and the form designer (ViewScreenDesign / ViewFormDesign): one component, two
// configurations. Left: 组件 (templates) and 图层 (layers); centre: toolbar and the editable canvas; right: the
// generated property panel. All state lives in this instance (createDesigner), so two designers never mix.
// It takes the whole window (Designer.css; the console's routes for it have the `editor` layout): its top bar with
// 返回 is the way back to the console.
// On a phone-width screen (useNarrow, below 768 px) the canvas takes the screen: the toolbar keeps 返回, undo,
// redo, 预览 and 保存 and opens 组件 / 图层 and 属性 as drawers, the other tools under 更多; a tap on a template adds
// it in the middle of the view (nothing is dragged out of a drawer) and closes the drawer.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Divider, Drawer, Dropdown, Modal, Result, Space, Spin, Tabs, Tooltip, Typography } from 'antd';
import { DownloadOutlined, DownOutlined, EyeOutlined, HistoryOutlined, LeftOutlined, MenuFoldOutlined, MenuUnfoldOutlined, RedoOutlined, SaveOutlined, UndoOutlined, UploadOutlined } from '@ant-design/icons';
import { useStore } from '../runtime/core/store';
import { useNarrow } from '../runtime/ui/narrow';
import { preloadWidgetKinds, WidgetDataContext } from '../widgets';
import { RightPanel } from './panel';
import { pageFieldsOf } from './panel/formFields';
import { EditableCanvas, type CanvasViewport } from './canvas/EditableCanvas';
import { ViewTools } from './ViewTools';
import { loadGridPref, saveGridPref, type GridPref } from './editor/prefs';
import { TemplateList } from './left/TemplateList';
import { LayerList } from './left/LayerList';
import { ArrangeToolbar } from './canvas/ArrangeToolbar';
import { groupOf } from '../common/groups';
import { createDesigner, isDirty } from './editor/store';
import { useDesignerKeys } from './editor/keys';
import { download, exportDoc, importDoc } from './io/transfer';
import { captureThumbnail, thumbnailFileName } from './io/thumbnail';
import type { DesignerConfig, DesignerPage, DesignerServices } from './editor/services';
import type { CatalogueEntry, WidgetEntity } from '../widgets';
import './Designer.css';

/** What a host hands a designer (the runtime's HTTP calls, the stories' in-memory ones). */
export type { DesignerConfig, DesignerServices };

export const DEFAULT_SCALE = 0.6;

export interface DesignerProps {
  pageId: string | null;
  services: DesignerServices;
  config: DesignerConfig;
  /** Leaves the designer (the host closes its tab and goes back to the list). */
  onBack: () => void;
  /** Told whenever the unsaved state changes, with how to save or throw away the edits (the host's leave guard). */
  onGuard?: (guard: DesignerGuard) => void;
  /** 历史版本: the host shows the page's versions (the button shows only when given) */
  onHistory?: () => void;
}

export interface DesignerGuard {
  /** edits since the last save, or widgets created on the server since then */
  unsaved: boolean;
  save(): Promise<boolean>;
  /** 不保存: back to the last saved state, on the server too (the widgets dropped since the save are deleted) */
  discard(): Promise<void>;
  /** the browser unloads the page: the same deletes, not awaited */
  unload(): void;
  /** the page as edited now, as a version holds it ({ canvas, widgets }): compared with what was saved */
  snapshot(): unknown;
}

/** What the right panel says about a selection of several layers (a whole group by its name). */
function selectionNote(widgets: readonly WidgetEntity[], selected: readonly string[]): string {
  const chosen = new Set(selected);
  const picked = widgets.filter((w) => chosen.has(w.id));
  const g = picked[0] ? groupOf(picked[0]) : null;
  if (g && picked.every((w) => groupOf(w)?.id === g.id) && widgets.filter((w) => groupOf(w)?.id === g.id).length === picked.length) {
    return `已选择分组【${g.name}】（${picked.length} 个图层）：拖动可一起移动，拖动手柄一起缩放，方向键微调，Delete 删除，Ctrl+Shift+G 取消组合`;
  }
  return `已选择 ${selected.length} 个图层：拖动可一起移动，方向键微调，Delete 删除；工具栏可对齐、分布，Ctrl+G 组合`;
}

/**
 * The page's variables as the canvas panel holds them: every item with all its keys (title and default '' when
 * absent). The panel fills missing keys with their schema defaults and reports that as an edit, so a page
 * loaded without them would show as changed the moment it opens.
 */
function panelVariables(list: DesignerPage['variables']): NonNullable<DesignerPage['variables']> {
  return (list ?? []).map((v) => ({ name: v.name, title: v.title ?? '', type: v.type, default: v.default ?? '' }));
}

export function Designer({ pageId, services, config, onBack, onGuard, onHistory }: DesignerProps) {
  const { message } = App.useApp();
  const [designer] = useState(() => createDesigner());
  const rootRef = useRef<HTMLDivElement>(null);
  const [page, setPage] = useState<DesignerPage | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueEntry[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [scale, setScale] = useState(DEFAULT_SCALE);
  const viewportRef = useRef<CanvasViewport>(null);
  // 网格吸附 and its size: this user's, remembered in this browser
  const [grid, setGrid] = useState<GridPref>(() => loadGridPref(config.user));
  const changeGrid = useCallback(
    (g: GridPref) => {
      setGrid(g);
      saveGridPref(config.user, g);
    },
    [config.user],
  );
  const [leftOpen, setLeftOpen] = useState(true);
  const [rightOpen, setRightOpen] = useState(true);
  const [leftTab, setLeftTab] = useState('templates');
  const narrow = useNarrow();
  // narrow: which drawer is open (组件 / 图层, 属性), and the 更多 menu
  const [drawer, setDrawer] = useState<'left' | 'right' | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [faults, setFaults] = useState<string[] | null>(null);
  // widgets widget/add created on the server since the last save (a drop creates it at once, spec part 2 §4)
  const [created, setCreated] = useState<readonly string[]>([]);
  const fileRef = useRef<HTMLInputElement>(null);
  const dirty = useStore(designer.store, isDirty);
  const canUndo = useStore(designer.store, (s) => s.past.length > 0);
  const canRedo = useStore(designer.store, (s) => s.future.length > 0);
  const widgets = useStore(designer.store, (s) => s.doc.widgets);
  const canvas = useStore(designer.store, (s) => s.doc.canvas);
  const selected = useStore(designer.store, (s) => s.selected);

  useEffect(() => {
    if (!pageId) return setFailed(`缺少${config.noun}编号`);
    let live = true;
    // the page first: an unknown id is said once, not by every call that follows
    const load = async () => {
      const p = await services.loadPage(pageId);
      const [list, cat] = await Promise.all([services.loadWidgets(pageId), services.catalogue()]);
      // the canvas opens with the page's widgets drawn: the code of its kinds first (widgets/kindCode.ts)
      await preloadWidgetKinds(list.map((w) => w.widgetName));
      return [p, list, cat] as const;
    };
    load().then(
      ([p, list, cat]) => {
        if (!live) return;
        setPage(p);
        setCatalogue(cat);
        designer.load({ canvas: { width: p.width, height: p.height, backgroundColor: p.backgroundColor ?? '', refreshSeconds: p.refreshSeconds ?? null, theme: p.theme, backgroundImage: p.backgroundImage ?? '', variables: panelVariables(p.variables) }, widgets: list });
      },
      (err: unknown) => live && setFailed(err instanceof Error ? err.message : `${config.noun}不存在`),
    );
    return () => {
      live = false;
    };
  }, [pageId, services, designer, config.noun]);

  const used = useMemo(() => {
    const n: Record<string, number> = {};
    for (const w of widgets) n[w.widgetName] = (n[w.widgetName] ?? 0) + 1;
    return n;
  }, [widgets]);
  const dataServices = useMemo(() => ({ fetchApiData: services.panel?.fetchApiData, fetchDataset: services.panel?.fetchDataset }), [services]);
  // the panel's pickers of a filter's variable and a parameter's binding offer the canvas's declared variables;
  // its field logic editor and cascade picker list the form's fields as they are now
  const canvasVariables = canvas.variables;
  const panelServices = useMemo(
    () => ({ ...services.panel, variables: canvasVariables ?? [], formFields: () => pageFieldsOf(designer.store.get().doc.widgets) }),
    [services.panel, canvasVariables, designer],
  );

  const onDropTemplate = useCallback(
    async (widgetName: string, left: number, top: number): Promise<boolean> => {
      if (!pageId) return false;
      const entry = catalogue.find((c) => c.widgetName === widgetName);
      if (entry && entry.maxUse > 0 && (used[widgetName] ?? 0) >= entry.maxUse) {
        message.warning(`【${entry.widgetTitle}】最多只能添加 ${entry.maxUse} 个`);
        return false;
      }
      try {
        const w = await services.addWidget({ pageId, widgetName, top, left });
        setCreated((c) => [...c, w.id]);
        designer.add(w);
        return true;
      } catch {
        /* the request layer showed why */
        return false;
      }
    },
    [pageId, catalogue, used, services, designer, message],
  );

  /**
   * The picture of what was saved, for the list (issue 22): taken and stored before the save counts as done, so
   * going back to the list shows it; a failure only leaves the old picture (the save itself has succeeded).
   */
  const saveThumbnail = useCallback(
    async (id: string, doc: Parameters<typeof captureThumbnail>[0]) => {
      if (!services.saveThumbnail) return;
      try {
        const picture = await captureThumbnail(doc, services.panel?.fetchApiData);
        await services.saveThumbnail(id, picture, thumbnailFileName(picture));
      } catch (err) {
        console.warn('缩略图未能保存', err);
      }
    },
    [services],
  );

  /** Canvas first, then the whole widget list (spec §4); a failure of the second keeps every edit. */
  const save = useCallback(async (): Promise<boolean> => {
    if (!page) return false;
    setSaving(true);
    const { doc } = designer.store.get();
    let saved: DesignerPage;
    try {
      saved = await services.savePage({ ...page, ...doc.canvas });
      setPage(saved);
    } catch {
      setSaving(false);
      return false;
    }
    try {
      await services.saveWidgets(page.id, doc.widgets);
      designer.markSaved();
      // the saved list is the page now: what it left out was deleted by the save
      setCreated([]);
      message.success('保存成功');
      await saveThumbnail(page.id, doc);
      return true;
    } catch (err) {
      message.error(`画布已保存，但组件保存失败：${err instanceof Error ? err.message : String(err)}。编辑内容仍保留，请重试保存。`);
      return false;
    } finally {
      setSaving(false);
    }
  }, [page, services, designer, message, saveThumbnail]);

  const unsaved = dirty || created.length > 0;
  const discard = useCallback(async () => {
    setCreated([]);
    if (pageId && created.length) await services.discardWidgets?.(pageId, created);
  }, [pageId, created, services]);
  const unload = useCallback(() => {
    if (pageId && created.length) services.discardOnUnload?.(pageId, created);
  }, [pageId, created, services]);
  useEffect(() => {
    const snapshot = () => {
      const { doc } = designer.store.get();
      return { canvas: { pageName: page?.pageName, ...doc.canvas }, widgets: doc.widgets.map((w) => ({ id: w.id, widgetName: w.widgetName, widgetTitle: w.widgetTitle, icon: w.icon, widgetProps: w.widgetProps })) };
    };
    onGuard?.({ unsaved, save, discard, unload, snapshot });
  }, [onGuard, unsaved, save, discard, unload, designer, page]);

  const back = () => (unsaved ? setLeaving(true) : onBack());

  const onImport = async (file: File) => {
    if (!pageId) return;
    if (file.size > 10 * 1024 * 1024) return setFaults(['文件超过 10 MB']);
    const r = importDoc(await file.text(), pageId);
    if ('faults' in r) return setFaults(r.faults);
    designer.replace(r.doc);
    message.success('导入成功（可撤销）');
  };

  useDesignerKeys(rootRef, designer, pageId ?? '', { onSave: () => void save(), onCopied: (n) => message.info(`已复制 ${n} 个图层`) });

  if (failed) return <Result status="404" title={failed} extra={<Button onClick={onBack}>返回</Button>} />;
  const one: WidgetEntity | null = selected.length === 1 ? (widgets.find((w) => w.id === selected[0]) ?? null) : null;

  // the two panels' contents: beside the canvas on a wide screen, in drawers on a narrow one
  const leftTabs = (
    <Tabs
      size="small"
      activeKey={leftTab}
      onChange={setLeftTab}
      style={narrow ? undefined : { padding: '0 8px' }}
      items={[
        {
          key: 'templates',
          label: '组件',
          children: narrow ? (
            <TemplateList
              catalogue={catalogue}
              used={used}
              onPick={(name) => {
                const at = viewportRef.current?.visibleCenter() ?? { left: 0, top: 0 };
                void preloadWidgetKinds([name]);
                void onDropTemplate(name, at.left, at.top).then((added) => added && setDrawer(null));
              }}
            />
          ) : (
            <TemplateList catalogue={catalogue} used={used} />
          ),
        },
        { key: 'layers', label: '图层', children: <LayerList designer={designer} /> },
      ]}
    />
  );
  const rightContent =
    selected.length > 1 ? (
      <Alert style={{ margin: 12 }} type="info" showIcon message={selectionNote(widgets, selected)} />
    ) : (
      <RightPanel widget={one} canvas={canvas} onWidgetChange={designer.patchProps} onCanvasChange={designer.setCanvas} services={panelServices} interactions={config.kind === 'screen'} />
    );
  const importInput = (
    <input
      ref={fileRef}
      type="file"
      accept="application/json,.json"
      data-testid="designer-import"
      style={{ display: 'none' }}
      onChange={(e) => {
        const f = e.target.files?.[0];
        e.target.value = '';
        if (f) void onImport(f);
      }}
    />
  );
  const exportDocument = () => download(exportDoc(designer.store.get().doc, config.kind, page?.pageName ?? ''), `${page?.pageName || config.noun}.json`);
  const undoRedo = (
    <>
      <Tooltip title="撤销 Ctrl+Z">
        <Button icon={<UndoOutlined />} aria-label="撤销" disabled={!canUndo} onClick={designer.undo} />
      </Tooltip>
      <Tooltip title="重做 Ctrl+Shift+Z / Ctrl+Y">
        <Button icon={<RedoOutlined />} aria-label="重做" disabled={!canRedo} onClick={designer.redo} />
      </Tooltip>
    </>
  );
  const saveButton = (
    <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>
      保存
    </Button>
  );
  const historyButton = onHistory && (
    <Button icon={<HistoryOutlined />} onClick={onHistory} data-testid="designer-history">
      历史版本
    </Button>
  );
  const previewButton = (
    <Button icon={<EyeOutlined />} onClick={() => pageId && window.open(config.previewUrl(pageId), '_blank')}>
      预览
    </Button>
  );
  // the editable canvas: the screen's width when narrow (touch scrolls it), between the panels otherwise
  const stage = page && (
    <EditableCanvas
      designer={designer}
      scale={scale}
      pageId={page.id}
      grid={grid.on ? grid.size : 0}
      onScaleChange={setScale}
      viewport={viewportRef}
      onDropTemplate={(n, l, t) => void onDropTemplate(n, l, t)}
      narrow={narrow}
    />
  );
  const openLeft = (tab: string) => {
    setLeftTab(tab);
    setDrawer('left');
  };
  // narrow buttons a little tighter, so the second row holds undo, redo, 组件, 图层, 属性 and 更多 at 390 px
  const tight = { paddingInline: 8 };

  return (
    <WidgetDataContext.Provider value={dataServices}>
      <div ref={rootRef} className="designer" data-testid="designer" tabIndex={-1}>
        {narrow ? (
          <div data-testid="designer-toolbar-narrow" style={{ padding: '6px 8px', borderBottom: '1px solid #f0f0f0', display: 'flex', flexDirection: 'column', gap: 6 }}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <Button icon={<LeftOutlined />} onClick={back} style={tight}>
                返回
              </Button>
              <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }}>
                {page?.pageName}
                {unsaved && <Typography.Text type="warning">（未保存）</Typography.Text>}
              </Typography.Text>
              {previewButton}
              {saveButton}
            </div>
            <div style={{ display: 'flex', alignItems: 'center', gap: 4, flexWrap: 'wrap' }}>
              <Space.Compact>{undoRedo}</Space.Compact>
              <Button style={tight} autoInsertSpace={false} onClick={() => openLeft('templates')}>
                组件
              </Button>
              <Button style={tight} autoInsertSpace={false} onClick={() => openLeft('layers')}>
                图层
              </Button>
              <Button style={tight} autoInsertSpace={false} onClick={() => setDrawer('right')}>
                属性
              </Button>
              {importInput}
              <Dropdown
                trigger={['click']}
                open={moreOpen}
                onOpenChange={setMoreOpen}
                // centred under the button and shifted to stay inside the window
                placement="bottom"
                popupRender={() => (
                  <div data-testid="designer-more" className="designer-more" style={{ width: 'min(340px, calc(100vw - 16px))', padding: 12, background: '#fff', borderRadius: 8, boxShadow: '0 6px 16px rgba(0,0,0,.12), 0 3px 6px -4px rgba(0,0,0,.12)', display: 'flex', flexDirection: 'column', gap: 10 }}>
                    <Typography.Text type="secondary">视图</Typography.Text>
                    <ViewTools
                      scale={scale}
                      onScale={setScale}
                      onFit={() => {
                        viewportRef.current?.fit();
                        setMoreOpen(false);
                      }}
                      grid={grid}
                      onGrid={changeGrid}
                    />
                    <Typography.Text type="secondary">对齐与分布（选择多个图层）</Typography.Text>
                    <ArrangeToolbar designer={designer} />
                    <Typography.Text type="secondary">文件</Typography.Text>
                    <Space wrap>
                      {onHistory && (
                        <Button
                          icon={<HistoryOutlined />}
                          onClick={() => {
                            setMoreOpen(false);
                            onHistory();
                          }}
                        >
                          历史版本
                        </Button>
                      )}
                      <Button
                        icon={<UploadOutlined />}
                        onClick={() => {
                          setMoreOpen(false);
                          fileRef.current?.click();
                        }}
                      >
                        导入
                      </Button>
                      <Button
                        icon={<DownloadOutlined />}
                        onClick={() => {
                          setMoreOpen(false);
                          exportDocument();
                        }}
                      >
                        导出
                      </Button>
                    </Space>
                  </div>
                )}
              >
                <Button style={tight} autoInsertSpace={false} icon={<DownOutlined />} iconPosition="end">
                  更多
                </Button>
              </Dropdown>
            </div>
          </div>
        ) : (
          <Space style={{ padding: '6px 12px', borderBottom: '1px solid #f0f0f0', justifyContent: 'space-between', width: '100%' }} wrap>
            <Space>
              <Button icon={<LeftOutlined />} onClick={back}>
                返回
              </Button>
              <Typography.Text strong>{page?.pageName}</Typography.Text>
              {unsaved && <Typography.Text type="warning">（未保存）</Typography.Text>}
            </Space>
            <Space wrap>
              <Tooltip title="导入 JSON 文件（可撤销）">
                <Button icon={<UploadOutlined />} onClick={() => fileRef.current?.click()}>
                  导入
                </Button>
              </Tooltip>
              {importInput}
              <Button icon={<DownloadOutlined />} onClick={exportDocument}>
                导出
              </Button>
              <Divider type="vertical" />
              {undoRedo}
              <Divider type="vertical" />
              <ArrangeToolbar designer={designer} />
              <Divider type="vertical" />
              {saveButton}
              {previewButton}
              {historyButton}
              <Divider type="vertical" />
              <ViewTools scale={scale} onScale={setScale} onFit={() => viewportRef.current?.fit()} grid={grid} onGrid={changeGrid} />
            </Space>
          </Space>
        )}
        {narrow ? (
          <Spin spinning={!page} wrapperClassName="designer-body">
            {/* the canvas takes the screen; the selection's 属性 float over it */}
            <div className="designer-main">
              {stage}
              {selected.length > 0 && (
                <Button type="primary" shape="round" data-testid="designer-selection-props" onClick={() => setDrawer('right')} style={{ position: 'absolute', right: 12, bottom: 12, zIndex: 1, maxWidth: 'calc(100% - 24px)', boxShadow: '0 4px 12px rgba(0,0,0,.35)' }}>
                  <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{one ? `属性：${one.widgetTitle || one.widgetName}` : `属性（${selected.length} 个图层）`}</span>
                </Button>
              )}
            </div>
            <Drawer title="组件 / 图层" placement="left" open={drawer === 'left'} onClose={() => setDrawer(null)} width="min(320px, 88vw)" rootClassName="designer-drawer-left" styles={{ body: { padding: '0 12px 12px' } }}>
              {leftTabs}
            </Drawer>
            <Drawer title={one ? `属性：${one.widgetTitle || one.widgetName}` : selected.length > 1 ? '属性' : '画布属性'} placement="right" open={drawer === 'right'} onClose={() => setDrawer(null)} width="min(380px, 92vw)" rootClassName="designer-drawer-right" styles={{ body: { padding: 0 } }}>
              {rightContent}
            </Drawer>
          </Spin>
        ) : (
          <Spin spinning={!page} wrapperClassName="designer-body">
            <div className="designer-main">
              <aside className="designer-side designer-left" data-open={leftOpen} data-testid="designer-left">
                <Button type="text" size="small" aria-label={leftOpen ? '收起左侧面板' : '展开左侧面板'} icon={leftOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />} onClick={() => setLeftOpen((o) => !o)} />
                {leftOpen && leftTabs}
              </aside>
              {stage}
              <aside className="designer-side designer-right" data-open={rightOpen} data-testid="designer-right">
                <Button type="text" size="small" aria-label={rightOpen ? '收起右侧面板' : '展开右侧面板'} icon={rightOpen ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={() => setRightOpen((o) => !o)} />
                {rightOpen && rightContent}
              </aside>
            </div>
          </Spin>
        )}
        <Modal
          open={leaving}
          title="是否要返回？"
          onCancel={() => setLeaving(false)}
          footer={[
            <Button key="cancel" onClick={() => setLeaving(false)}>
              取消
            </Button>,
            <Button key="discard" danger onClick={() => void discard().then(onBack)}>
              不保存
            </Button>,
            <Button key="save" type="primary" loading={saving} onClick={async () => (await save()) && onBack()}>
              保存
            </Button>,
          ]}
        >
          未保存的内容将会丢失。
        </Modal>
        <Modal open={faults !== null} title="导入失败：文件有以下问题，画布未作任何修改" onCancel={() => setFaults(null)} footer={<Button onClick={() => setFaults(null)}>知道了</Button>} width={640}>
          <ul data-testid="import-faults" style={{ maxHeight: 360, overflow: 'auto' }}>
            {faults?.map((f, i) => <li key={i}>{f}</li>)}
          </ul>
        </Modal>
      </div>
    </WidgetDataContext.Provider>
  );
}
