// The stage the designer edits on and the previews show (read-only without onSelect): each widget absolutely placed by width, height, top, left (spec "Preview").
// Widgets are memoized on their entity object, so an edit to one widget re-renders only it.
import { memo, useCallback, type CSSProperties, type MouseEvent, type ReactNode, type Ref } from 'react';
import type { CanvasProps } from '../../common/canvas';
import { CanvasColourContext, screenTheme, ScreenThemeContext } from '../charts/themes';
import { checkImageUrl } from '../imageView/checkImageUrl';
import type { WidgetEntity } from '../types';
import { SCREEN_FONT } from '../theme';
import { WidgetView } from '../WidgetView';

/** Spec stack levels: raised while active, back to 1 otherwise. */
export const STACK_ACTIVE = 9999;
export const STACK_IDLE = 1;

export interface CanvasStageProps {
  canvas: CanvasProps;
  widgets: readonly WidgetEntity[];
  selectedId?: string | null;
  /** Omit for a read-only stage (preview). */
  onSelect?: (id: string | null) => void;
  scale?: number;
  /** The designer's ids of selected widgets (several at once); selectedId is the single-selection form. */
  selectedIds?: readonly string[];
  /** The unscaled stage element (the designer measures drops and attaches its handles to it). */
  stageRef?: Ref<HTMLDivElement>;
  /** Overlays drawn in canvas coordinates (the designer's move / resize handles). */
  children?: ReactNode;
  /**
   * How the stage is scaled: a CSS transform (default), or CSS `zoom` (the designer). Under a scale transform
   * Chromium keeps clipped text (table cells, carousels) in compositing layers of their own to keep LCD text,
   * hundreds of them on a full canvas, each re-layerized and composited on every frame; zoom lays the stage out
   * at the scale instead, so the widgets share one layer (bench/designer).
   */
  scaleBy?: 'transform' | 'zoom';
}

/**
 * The canvas's background: its own colour, else its theme's; its image (when the address passes the image rules)
 * over it, covering the canvas.
 */
export function canvasBackground(canvas: Pick<CanvasProps, 'backgroundColor' | 'backgroundImage' | 'theme'>): CSSProperties {
  const color = canvas.backgroundColor || screenTheme(canvas.theme).background;
  const image = canvas.backgroundImage ? checkImageUrl(canvas.backgroundImage) : null;
  if (!image || !('src' in image)) return { backgroundColor: color };
  return { backgroundColor: color, backgroundImage: `url(${JSON.stringify(image.src)})`, backgroundSize: '100% 100%', backgroundRepeat: 'no-repeat' };
}

export const CanvasStage = memo(function CanvasStage({ canvas, widgets, selectedId, onSelect, scale = 1, selectedIds, stageRef, children, scaleBy = 'transform' }: CanvasStageProps) {
  const onBackground = useCallback((e: MouseEvent) => e.target === e.currentTarget && onSelect?.(null), [onSelect]);
  // the charts below follow the canvas's theme (one context, read by useEChart)
  const theme = screenTheme(canvas.theme);
  return (
    <ScreenThemeContext.Provider value={theme}>
      <CanvasColourContext.Provider value={canvas.backgroundColor || theme.background}>
      <div style={{ width: canvas.width * scale, height: canvas.height * scale, overflow: 'hidden' }}>
        <div
          ref={stageRef}
          data-testid="canvas-stage"
          className="canvas-stage"
          onMouseDown={onBackground}
          style={{
            position: 'relative',
            width: canvas.width,
            height: canvas.height,
            ...canvasBackground(canvas),
            ...(scale === 1 ? {} : scaleBy === 'zoom' ? { zoom: scale } : { transform: `scale(${scale})`, transformOrigin: '0 0' }),
            fontFamily: SCREEN_FONT,
          }}
        >
          {widgets.map((w) =>
            // a hidden layer (designer flag) is drawn nowhere
            w.widgetProps.hidden ? null : <PlacedWidget key={w.id} widget={w} selected={w.id === selectedId || Boolean(selectedIds?.includes(w.id))} onSelect={onSelect} />,
          )}
          {children}
        </div>
      </div>
      </CanvasColourContext.Provider>
    </ScreenThemeContext.Provider>
  );
});

interface PlacedWidgetProps {
  widget: WidgetEntity;
  selected: boolean;
  onSelect?: (id: string) => void;
}

export const PlacedWidget = memo(function PlacedWidget({ widget, selected, onSelect }: PlacedWidgetProps) {
  const { viewProps, datasourceProps, interactionProps } = widget.widgetProps;
  const style: CSSProperties = {
    position: 'absolute',
    left: viewProps.left,
    top: viewProps.top,
    width: viewProps.width,
    height: viewProps.height,
    zIndex: selected ? STACK_ACTIVE : STACK_IDLE,
    outline: selected ? '1px dashed #4FD2DD' : undefined,
    cursor: onSelect ? 'pointer' : undefined,
    // Each widget is its own layout and paint island: a chart redrawing or a table
    // scrolling never makes the browser re-layout or repaint its neighbours.
    contain: 'strict',
  };
  return (
    <div data-widget-id={widget.id} style={style} onMouseDown={onSelect ? () => onSelect(widget.id) : undefined}>
      <WidgetView widgetName={widget.widgetName} viewProps={viewProps} datasourceProps={datasourceProps} interactionProps={interactionProps} />
    </div>
  );
});
