// A visible flag on the widget for mapping faults and data-source states, so a wrong
// field name never just renders as an empty widget.
import type { CSSProperties } from 'react';
import { describeProblem, type MappingProblem } from './mapping';

export function WidgetNotice({ problems, notice }: { problems: MappingProblem[]; notice?: string }) {
  const lines = [...problems.map(describeProblem), ...(notice ? [notice] : [])];
  if (lines.length === 0) return null;
  return (
    <div role="alert" data-testid="widget-notice" title={lines.join('\n')} style={noticeStyle}>
      <span aria-hidden style={{ marginRight: 4 }}>⚠</span>
      {lines.join('；')}
    </div>
  );
}

const noticeStyle: CSSProperties = {
  position: 'absolute',
  top: 2,
  right: 2,
  maxWidth: 'calc(100% - 4px)',
  zIndex: 2,
  padding: '1px 6px',
  borderRadius: 4,
  background: 'rgba(250, 173, 20, 0.92)',
  color: '#1f1f1f',
  fontSize: 12,
  lineHeight: '18px',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  pointerEvents: 'auto',
};
