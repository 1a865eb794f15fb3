// The designer toolbar's view tools: 适应画布, the scale (缩放, also changed by Ctrl + wheel on the canvas) and
// 网格吸附 with its grid size. They change how the canvas is looked at and where moves land, never the
// document, so none of them is an undo step.
import { Button, InputNumber, Space, Switch, Tooltip } from 'antd';
import { ExpandOutlined } from '@ant-design/icons';
import { GRID_MAX, GRID_MIN, type GridPref } from './editor/prefs';
import { MAX_SCALE, MIN_SCALE } from './canvas/viewport';

export interface ViewToolsProps {
  scale: number;
  onScale: (scale: number) => void;
  onFit: () => void;
  grid: GridPref;
  onGrid: (grid: GridPref) => void;
}

const MIN_PCT = Math.round(MIN_SCALE * 100);
const MAX_PCT = Math.round(MAX_SCALE * 100);

export function ViewTools({ scale, onScale, onFit, grid, onGrid }: ViewToolsProps) {
  return (
    <Space wrap size={6} data-testid="designer-view-tools">
      <Tooltip title="按可见区域缩放，显示整个画布（Ctrl + 滚轮缩放，按住空格拖动平移）">
        <Button icon={<ExpandOutlined />} onClick={onFit}>
          适应画布
        </Button>
      </Tooltip>
      <InputNumber
        aria-label="缩放"
        min={MIN_PCT}
        max={MAX_PCT}
        step={10}
        value={Math.round(scale * 100)}
        formatter={(v) => `${v}%`}
        parser={(v) => Number(String(v ?? '').replace('%', ''))}
        onChange={(v) => v && onScale(Math.min(MAX_PCT, Math.max(MIN_PCT, v)) / 100)}
        style={{ width: 90 }}
      />
      {/* the switch and its size wrap together */}
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, whiteSpace: 'nowrap' }}>
        <Tooltip title="开启后移动和缩放图层时对齐到网格">
          <label style={{ display: 'inline-flex', alignItems: 'center', gap: 4, cursor: 'pointer' }}>
            <Switch size="small" checked={grid.on} onChange={(on) => onGrid({ ...grid, on })} />
            网格吸附
          </label>
        </Tooltip>
        <InputNumber
          aria-label="网格大小"
          size="small"
          min={GRID_MIN}
          max={GRID_MAX}
          precision={0}
          value={grid.size}
          disabled={!grid.on}
          suffix="px"
          onChange={(v) => v && onGrid({ ...grid, size: Math.min(GRID_MAX, Math.max(GRID_MIN, Math.round(v))) })}
          style={{ width: 76 }}
        />
      </span>
    </Space>
  );
}
