// Tab 组件: the catalogue's templates in their folders, each draggable onto the canvas; a usage badge
// (used / maxUse) when the kind has a cap.
import { memo } from 'react';
import { Badge, Collapse, Empty, Tooltip, Typography } from 'antd';
import { preloadWidgetKinds, WidgetIcon, type CatalogueEntry } from '../../widgets';
import { TEMPLATE_DND_TYPE } from '../canvas/EditableCanvas';

export interface TemplateListProps {
  catalogue: readonly CatalogueEntry[];
  /** widgetName → how many the canvas holds */
  used: Record<string, number>;
}

export const TemplateList = memo(function TemplateList({ catalogue, used }: TemplateListProps) {
  const folders = catalogue.filter((c) => c.widgetType === 'M');
  if (!folders.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无组件" />;
  return (
    <Collapse
      size="small"
      ghost
      defaultActiveKey={folders.map((f) => f.id)}
      items={folders.map((f) => ({
        key: f.id,
        label: f.widgetTitle,
        children: (
          <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
            {catalogue
              .filter((c) => c.widgetType === 'C' && c.parentId === f.id)
              .map((c) => {
                const n = used[c.widgetName ?? ''] ?? 0;
                const full = c.maxUse > 0 && n >= c.maxUse;
                const card = (
                  <div
                    key={c.id}
                    draggable={!full}
                    data-testid={`template-${c.widgetName}`}
                    aria-label={c.widgetTitle}
                    onDragStart={(e) => {
                      // the kind's code comes while it is dragged, so the dropped widget draws at once
                      void preloadWidgetKinds([c.widgetName ?? '']);
                      e.dataTransfer.setData(TEMPLATE_DND_TYPE, c.widgetName ?? '');
                      e.dataTransfer.effectAllowed = 'copy';
                    }}
                    style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: '10px 4px', textAlign: 'center', cursor: full ? 'not-allowed' : 'grab', opacity: full ? 0.5 : 1, background: '#fff', userSelect: 'none' }}
                  >
                    <div style={{ fontSize: 22, color: '#1677ff' }}>
                      <WidgetIcon name={c.icon} />
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
  );
});
