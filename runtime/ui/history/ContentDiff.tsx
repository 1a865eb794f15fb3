// Two contents of a designed item side by side (issue 37): the changes in words (common/versionDiff.ts), a
// thumbnail of each side for a screen or form, and the raw JSON diff (jsondiffpatch) on demand. The history
// drawer compares versions with it; the workspace import compares what a deployment holds with what a file brings.
import { useMemo, useState } from 'react';
import { Button, List, Space, Tag, Typography } from 'antd';
import { create } from 'jsondiffpatch';
import { format as htmlDiff } from 'jsondiffpatch/formatters/html';
import 'jsondiffpatch/formatters/styles/html.css';
import { describeChanges, type Change } from '../../../common/versionDiff';
import { LayoutThumbnail } from './LayoutThumbnail';

const diffpatch = create({ objectHash: (o: object, i?: number) => String((o as { id?: unknown; field?: unknown }).id ?? (o as { field?: unknown }).field ?? `$$index:${i}`) });
const COLORS: Record<Change['kind'], string> = { added: 'green', removed: 'red', changed: 'blue', moved: 'purple' };
const WORDS: Record<Change['kind'], string> = { added: '新增', removed: '删除', changed: '修改', moved: '移动' };

export interface ContentDiffProps {
  /** the item's kind (page, screen, form, dataset, …): how its changes are told */
  kind: string;
  /** the older side; null when there is none (the first version) */
  left: unknown;
  right: unknown;
  leftName: string;
  rightName: string;
}

export function ContentDiff({ kind, left, right, leftName, rightName }: ContentDiffProps) {
  const [raw, setRaw] = useState(false);
  const changes = useMemo(() => (left !== null ? describeChanges(kind, left, right) : []), [kind, left, right]);
  const rawHtml = useMemo(() => {
    if (!raw) return '';
    const delta = diffpatch.diff(left ?? {}, right ?? {});
    return delta ? (htmlDiff(delta, left ?? {}) ?? '') : '';
  }, [raw, left, right]);
  return (
    <>
      {(kind === 'screen' || kind === 'form') && (
        <div style={{ display: 'flex', gap: 8, marginBottom: 8 }} data-testid="history-thumbs">
          <LayoutThumbnail snapshot={left} caption={leftName} />
          <LayoutThumbnail snapshot={right} caption={rightName} />
        </div>
      )}
      <Typography.Text strong>
        {leftName} → {rightName}
      </Typography.Text>
      {left === null ? (
        <Typography.Paragraph type="secondary">这是最早的版本。</Typography.Paragraph>
      ) : changes.length ? (
        <List
          size="small"
          dataSource={changes}
          data-testid="history-changes"
          renderItem={(c) => (
            <List.Item>
              <Space align="start">
                <Tag color={COLORS[c.kind]}>{WORDS[c.kind]}</Tag>
                <span>{c.text}</span>
              </Space>
            </List.Item>
          )}
        />
      ) : (
        <Typography.Paragraph type="secondary">内容相同。</Typography.Paragraph>
      )}
      <Button size="small" type="link" onClick={() => setRaw((r) => !r)} style={{ paddingLeft: 0 }}>
        {raw ? '收起 JSON 差异' : '查看 JSON 差异'}
      </Button>
      {raw && <div className="history-raw" style={{ overflow: 'auto', maxHeight: 360, fontSize: 12 }} dangerouslySetInnerHTML={{ __html: rawHtml || '<p>内容相同</p>' }} />}
    </>
  );
}
