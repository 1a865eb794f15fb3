import { fireEvent, render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createWidget, preloadWidgetKinds, type ViewProps, type WidgetKindProps, widgetNames, widgetRegistry } from '..';
import type { CanvasProps } from '../../common/canvas';
import { defaultsOf } from '../../common/widgets';
import canvasPanel from '../../schemas/widgets/canvas.panel.json';
import { CanvasStage, STACK_ACTIVE } from './CanvasStage';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(widgetNames), 60_000);

const canvasDefaults = defaultsOf(canvasPanel.schema) as CanvasProps;

describe('CanvasStage', () => {
  const widgets = widgetNames.map((n, i) => createWidget(n, { pageId: 'p', id: `w${i}`, top: i * 10, left: i * 20 }));

  it('places each widget by its view props and raises the selected one', () => {
    const onSelect = vi.fn();
    const { container } = render(<CanvasStage canvas={canvasDefaults} widgets={widgets} selectedId="w1" onSelect={onSelect} />);
    const el = container.querySelector('[data-widget-id="w2"]') as HTMLElement;
    expect([el.style.left, el.style.top, el.style.width, el.style.height]).toEqual(['40px', '20px', '300px', '300px']);
    expect((container.querySelector('[data-widget-id="w1"]') as HTMLElement).style.zIndex).toBe(String(STACK_ACTIVE));
    fireEvent.mouseDown(el.firstChild as HTMLElement);
    expect(onSelect).toHaveBeenLastCalledWith('w2');
    fireEvent.mouseDown(container.querySelector('[data-testid="canvas-stage"]')!);
    expect(onSelect).toHaveBeenLastCalledWith(null);
    expect((container.querySelector('[data-testid="canvas-stage"]') as HTMLElement).style.backgroundColor).toBe('rgb(29, 32, 45)');
  });

  it('scales by transform by default, and not by transform when the designer asks for zoom', () => {
    // jsdom's CSS model drops `zoom`; the designer's browser test and bench/designer check the zoomed stage
    const stage = (scaleBy?: 'transform' | 'zoom') => {
      const { container, unmount } = render(<CanvasStage canvas={canvasDefaults} widgets={widgets} scale={0.5} scaleBy={scaleBy} />);
      const el = container.querySelector('[data-testid="canvas-stage"]') as HTMLElement;
      const out = { transform: el.style.transform, box: [(el.parentElement as HTMLElement).style.width, (el.parentElement as HTMLElement).style.height] };
      unmount();
      return out;
    };
    const box = [`${canvasDefaults.width / 2}px`, `${canvasDefaults.height / 2}px`];
    expect(stage()).toEqual({ transform: 'scale(0.5)', box });
    expect(stage('zoom')).toEqual({ transform: '', box });
  });

  it('re-renders only the edited widget', () => {
    // Count renders of the title component through the registry entry the stage uses.
    const kind = widgetRegistry.singleLineTitle as { component: ComponentType<WidgetKindProps<ViewProps>> };
    const Original = kind.component;
    const rendered: unknown[] = [];
    kind.component = (props) => {
      rendered.push(props.viewProps.text);
      return <Original {...props} />;
    };
    try {
      const many = Array.from({ length: 50 }, (_, i) => {
        const w = createWidget('singleLineTitle', { pageId: 'p', id: `t${i}` });
        w.widgetProps.viewProps.text = `标题${i}`;
        return w;
      });
      const onSelect = () => {};
      const { rerender, container } = render(<CanvasStage canvas={canvasDefaults} widgets={many} selectedId="t3" onSelect={onSelect} />);
      expect(rendered).toHaveLength(50);
      rendered.length = 0;
      // an edit as the designer makes it: a new entity for the edited widget, the others kept
      const next = many.map((w) => (w.id === 't3' ? { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, text: '已修改' } } } : w));
      rerender(<CanvasStage canvas={canvasDefaults} widgets={next} selectedId="t3" onSelect={onSelect} />);
      expect(rendered).toEqual(['已修改']);
      expect(container.querySelector('[data-widget-id="t3"]')).toHaveTextContent('已修改');
    } finally {
      kind.component = Original;
    }
  });
});
