// A kind's code arrives on first use (kindCode.ts). In this file nothing is preloaded up front, so the first render
// of a kind meets its code not yet here: the widget keeps its box, says nothing alarming, and draws once it arrives.
import { render, screen } from '@testing-library/react';
import { createWidget, loadedKindComponent, preloadWidgetKinds } from './registry';
import { WidgetView } from './WidgetView';

function placed(name: string) {
  const w = createWidget(name, { pageId: 'p' });
  return (
    <div data-testid="box" style={{ position: 'absolute', width: w.widgetProps.viewProps.width, height: w.widgetProps.viewProps.height }}>
      <WidgetView widgetName={name} viewProps={w.widgetProps.viewProps} datasourceProps={w.widgetProps.datasourceProps} />
    </div>
  );
}

describe('kind code loaded on first use', () => {
  it('a kind not loaded yet fills its box while its code comes, with no notice, then draws', async () => {
    expect(loadedKindComponent('funnelChart')).toBeUndefined();
    const { container } = render(placed('funnelChart'));
    const waiting = container.querySelector('[data-widget-loading="funnelChart"]') as HTMLElement;
    expect(waiting).not.toBeNull();
    // the same box as the widget will have: nothing around it moves when it arrives
    expect([waiting.style.width, waiting.style.height]).toEqual(['100%', '100%']);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(container.querySelector('[data-widget="funnelChart"]')).toBeNull();
    expect(await screen.findByText((_, el) => el?.getAttribute('data-widget') === 'funnelChart', undefined, { timeout: 20_000 })).toBeInTheDocument();
    expect(container.querySelector('[data-widget-loading]')).toBeNull();
    expect(loadedKindComponent('funnelChart')).toBeTypeOf('function');
  });

  it('a preloaded kind draws in the first render, with no fallback at all', async () => {
    expect(loadedKindComponent('singleLineTitle')).toBeUndefined();
    await preloadWidgetKinds(['singleLineTitle', 'singleLineTitle', 'noSuchKind']);
    const { container } = render(placed('singleLineTitle'));
    expect(container.querySelector('[data-widget="singleLineTitle"]')).toHaveTextContent('单行标题');
    expect(container.querySelector('[data-widget-loading]')).toBeNull();
  });

  it('loads only what is asked for', async () => {
    await preloadWidgetKinds(['progressBar']);
    expect(loadedKindComponent('progressBar')).toBeTypeOf('function');
    expect(loadedKindComponent('scrollTable')).toBeUndefined();
  });
});
