// 历史版本 (issue 37 item 1): the versions of a designed item (page, screen, form, menu, dataset) in a drawer —
// who saved each, when, with what note, which were published — and, for the one chosen, what changed against the
// version before it (or against the item now, or against what the editor holds unsaved): the changes in words
// (common/versionDiff.ts), a thumbnail of each side for a screen or form, and the raw JSON diff (jsondiffpatch).
// 恢复 asks, then saves the old content as the newest version (GET/POST /api/history/*).
import { useEffect, useState } from 'react';
import { Alert, App, Button, Drawer, Empty, List, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { get, post } from '../../core/request';
import { ContentDiff } from './ContentDiff';
import type { VersionKind, VersionRow } from '../../../common/versions';

export type HistoryKind = VersionKind;

type Version = Omit<VersionRow, 'kind' | 'itemKey'>;

export interface HistoryDrawerProps {
  kind: HistoryKind;
  itemKey: string;
  open: boolean;
  onClose(): void;
  /** after a restore: the editor reads the item again */
  onRestored?(): void;
  /** what the editor holds now, unsaved (a refused stale save compares it with what was saved meanwhile) */
  editing?: unknown;
  /** open comparing the editor's content with the item as saved now */
  startWith?: 'editing';
}

type Against = 'previous' | 'current' | 'editing';

export function HistoryDrawer({ kind, itemKey, open, onClose, onRestored, editing, startWith }: HistoryDrawerProps) {
  const { modal, message } = App.useApp();
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [against, setAgainst] = useState<Against>(startWith ?? 'previous');
  const [sides, setSides] = useState<{ left: unknown; right: unknown; leftName: string; rightName: string } | null>(null);
  const [loading, setLoading] = useState(false);

  const load = () => {
    setError(null);
    get<{ records: Version[] }>('/history/list', { kind, key: itemKey }, { silent: true } as never)
      .then((d) => {
        setVersions(d.records);
        setChosen((c) => c ?? d.records[0]?.id ?? null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : '历史版本读取失败'));
  };
  useEffect(() => {
    if (!open) return;
    setVersions(null);
    setChosen(null);
    setAgainst(startWith ?? 'previous');
    load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again at each opening
  }, [open, kind, itemKey]);

  // the two sides of the comparison: the chosen version against the one before it, the item now, or the editor's
  useEffect(() => {
    if (!open || !versions) return;
    let live = true;
    const at = versions.findIndex((v) => v.id === chosen);
    const content = async (id: number) => (await get<{ content: unknown }>('/history/get', { id })).content;
    const current = async () => (await get<{ content: unknown }>('/history/current', { kind, key: itemKey })).content;
    (async () => {
      setLoading(true);
      try {
        if (against === 'editing') {
          setSides({ left: await current(), right: editing, leftName: '已保存的内容', rightName: '编辑中（未保存）' });
          return;
        }
        if (at < 0) return setSides(null);
        const v = versions[at];
        const right = await content(v.id);
        if (against === 'current') setSides({ left: right, right: await current(), leftName: `版本 ${v.number}`, rightName: '当前内容' });
        else {
          const prev = versions[at + 1];
          setSides({ left: prev ? await content(prev.id) : null, right, leftName: prev ? `版本 ${prev.number}` : '（无更早版本）', rightName: `版本 ${v.number}` });
        }
      } catch {
        if (live) setSides(null);
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [open, versions, chosen, against, kind, itemKey, editing]);


  const restore = (v: Version) =>
    modal.confirm({
      title: `恢复到版本 ${v.number}？`,
      content: `该版本的内容将保存为最新版本；现有的版本都会保留，可以再恢复回来。${editing !== undefined ? '编辑中未保存的修改将被替换。' : ''}`,
      okText: '恢复',
      cancelText: '取消',
      onOk: async () => {
        await post('/history/restore', { id: v.id });
        message.success('已恢复为新版本');
        onRestored?.();
        load();
      },
    });

  return (
    <Drawer title="历史版本" open={open} onClose={onClose} width="min(960px, 100vw)" destroyOnHidden data-testid="history-drawer">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 8 }} />}
      {!versions && !error && <Spin />}
      {versions && !versions.length && <Empty description="还没有历史版本：每次保存都会留下一个版本" />}
      {versions && versions.length > 0 && (
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <List
            style={{ flex: '1 1 260px', maxHeight: '70vh', overflow: 'auto' }}
            size="small"
            bordered
            dataSource={versions}
            renderItem={(v) => (
              <List.Item
                data-testid={`history-version-${v.number}`}
                onClick={() => setChosen(v.id)}
                style={{ cursor: 'pointer', background: v.id === chosen ? '#e6f4ff' : undefined }}
                actions={[
                  <Button key="restore" size="small" type="link" onClick={(e) => { e.stopPropagation(); restore(v); }} disabled={v.id === versions[0].id}>
                    恢复
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <Space size={4}>
                      <span>版本 {v.number}</span>
                      {v.id === versions[0].id && <Tag color="blue">最新</Tag>}
                      {v.published && <Tag color="green">已发布</Tag>}
                    </Space>
                  }
                  description={
                    <>
                      <div>{v.createTime} · {v.createUser ?? '系统'}</div>
                      {v.note && <Typography.Text type="secondary" ellipsis>{v.note}</Typography.Text>}
                    </>
                  }
                />
              </List.Item>
            )}
          />
          <div style={{ flex: '2 1 420px', minWidth: 0 }} data-testid="history-diff">
            <Segmented<Against>
              value={against}
              onChange={setAgainst}
              options={[
                { value: 'previous', label: '与上一版本对比' },
                { value: 'current', label: '与当前内容对比' },
                ...(editing !== undefined ? [{ value: 'editing' as const, label: '编辑中与已保存对比' }] : []),
              ]}
              style={{ marginBottom: 8 }}
            />
            <Spin spinning={loading}>
              {sides && <ContentDiff kind={kind} left={sides.left} right={sides.right} leftName={sides.leftName} rightName={sides.rightName} />}
            </Spin>
          </div>
        </div>
      )}
    </Drawer>
  );
}
