// Per-kind view props, written by hand to match schemas/widgets/*.widget.json.
// When `npm run gen:types` produces schemas/generated/widgets.ts, re-export from there
// (same names: <PascalWidgetName>ViewProps).
import type { ViewProps } from './types';

export interface SingleLineTitleViewProps extends ViewProps {
  text: string;
  fontSize: number;
  fontWeight: number;
  color: string;
  textAlign: 'center' | 'left' | 'right';
}

export interface BorderBoxViewProps extends ViewProps {
  borderColor: string;
  accentColor: string;
  borderWidth: number;
  cornerSize: number;
  backgroundColor: string;
}

export interface CarouselViewProps extends ViewProps {
  fitType: 'cover' | 'contain' | 'fill';
  interval: number;
  showDots: boolean;
  openInNewTab: boolean;
}

export interface ActiveRingViewProps extends ViewProps {
  innerRadius: number;
  outerRadius: number;
  rotateInterval: number;
  labelColor: string;
  colors: string[];
  chartOption?: Record<string, unknown>;
}

export interface ScrollTableViewProps extends ViewProps {
  rowHeight: number;
  fontSize: number;
  interval: number;
  headerBackground: string;
  headerColor: string;
  color: string;
  oddRowBackground: string;
  evenRowBackground: string;
  showIndex: boolean;
}

export interface BarChartViewProps extends ViewProps {
  barColor: string;
  barWidth: number;
  axisColor: string;
  showLabel: boolean;
  chartOption?: Record<string, unknown>;
}
