// Tab 组件: the catalogue's templates in their folders, each draggable onto the canvas; a usage badge
// (used / maxUse) when the kind has a cap. A search box above the folders keeps the kinds whose title or name
// holds the text (case-insensitive); folders left empty are hidden, the matching ones open.
import { memo, useMemo, useState } from 'react';
import { Badge, Collapse, Empty, Input, Tooltip, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { preloadWidgetKinds, WidgetIcon, type CatalogueEntry } from '../../widgets';
import { TEMPLATE_DND_TYPE } from '../canvas/EditableCanvas';

export interface TemplateListProps {
  catalogue: readonly CatalogueEntry[];
  /** widgetName → how many the canvas holds */
  used: Record<string, number>;
  /** A tap adds the kind (a phone-width designer, where nothing is dragged out of the drawer); absent: drag only. */
  onPick?: (widgetName: string) => void;
}

/** The kinds whose title or widget name holds the text (trimmed, case-insensitive); all of them for no text. */
export function matchTemplates(catalogue: readonly CatalogueEntry[], text: string): CatalogueEntry[] {
  const q = text.trim().toLowerCase();
  const kinds = catalogue.filter((c) => c.widgetType === 'C');
  if (!q) return kinds;
  return kinds.filter((c) => c.widgetTitle.toLowerCase().includes(q) || (c.widgetName ?? '').toLowerCase().includes(q));
}

export const TemplateList = memo(function TemplateList({ catalogue, used, onPick }: TemplateListProps) {
  const [text, setText] = useState('');
  // the folders the user opened or closed; while searching every folder with a match is open
  const [open, setOpen] = useState<string[] | null>(null);
  const folders = useMemo(() => catalogue.filter((c) => c.widgetType === 'M'), [catalogue]);
  const kinds = useMemo(() => matchTemplates(catalogue, text), [catalogue, text]);
  if (!folders.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无组件" />;
  const searching = text.trim() !== '';
  const shown = folders.filter((f) => kinds.some((c) => c.parentId === f.id));
  return (
    <div data-testid="template-list">
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined style={{ color: '#bfbfbf' }} />}
        placeholder="搜索组件"
        aria-label="搜索组件"
        value={text}
        onChange={(e) => setText(e.target.value)}
        style={{ margin: '4px 0 8px' }}
      />
      {!shown.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="无匹配的组件" />
      ) : (
        <Collapse
          size="small"
          ghost
          activeKey={searching ? shown.map((f) => f.id) : (open ?? folders.map((f) => f.id))}
          onChange={(keys) => !searching && setOpen(([] as string[]).concat(keys))}
          items={shown.map((f) => ({
            key: f.id,
            label: f.widgetTitle,
            children: (
              <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
                {kinds
                  .filter((c) => c.parentId === f.id)
                  .map((c) => {
                    const n = used[c.widgetName ?? ''] ?? 0;
                    const full = c.maxUse > 0 && n >= c.maxUse;
                    const card = (
                      <div
                        key={c.id}
                        draggable={!full}
                        data-testid={`template-${c.widgetName}`}
                        aria-label={c.widgetTitle}
                        role={onPick ? 'button' : undefined}
                        onClick={onPick && !full ? () => onPick(c.widgetName ?? '') : undefined}
                        onDragStart={(e) => {
                          // the kind's code comes while it is dragged, so the dropped widget draws at once
                          void preloadWidgetKinds([c.widgetName ?? '']);
                          e.dataTransfer.setData(TEMPLATE_DND_TYPE, c.widgetName ?? '');
                          e.dataTransfer.effectAllowed = 'copy';
                        }}
                        style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: '10px 4px', textAlign: 'center', cursor: full ? 'not-allowed' : onPick ? 'pointer' : 'grab', opacity: full ? 0.5 : 1, background: '#fff', userSelect: 'none' }}
                      >
                        <div style={{ fontSize: 22, color: '#1677ff' }}>
                          <WidgetIcon kind={c.widgetName} />
                        </div>
                        <Typography.Text style={{ fontSize: 12 }}>{c.widgetTitle}</Typography.Text>
                      </div>
                    );
                    const badged = c.maxUse > 0 ? (
                      <Badge key={c.id} count={`${n}/${c.maxUse}`} color={full ? '#ff4d4f' : '#1677ff'} size="small" offset={[-6, 6]}>
                        {card}
                      </Badge>
                    ) : (
                      card
                    );
                    return full ? (
                      <Tooltip key={c.id} title={`最多只能添加 ${c.maxUse} 个`}>
                        {badged}
                      </Tooltip>
                    ) : (
                      badged
                    );
                  })}
              </div>
            ),
          }))}
        />
      )}
    </div>
  );
});
