// The template list shows every widget kind the registry found in its folder (widgets/<kind>/), in the
// designers the kind declares: a new kind folder appears here with no other change. Its search box keeps the
// kinds whose title or name holds the text, hides the folders left empty and says when nothing matches.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { getWidgetKind, widgetCatalogueTree, type CatalogueEntry } from '../../widgets';
import { matchTemplates, TemplateList } from './TemplateList';

const widgetsDir = path.resolve(import.meta.dirname, '../../widgets');
const kindFolders = readdirSync(widgetsDir).filter((k) => existsSync(path.join(widgetsDir, k, `${k}.widget.json`)));

/** The flat catalogue a designer is served (folders M, then their components C). */
const catalogueOf = (designer: 'screen' | 'form'): CatalogueEntry[] =>
  widgetCatalogueTree(designer).flatMap(({ children, ...folder }) => [folder, ...children]);

describe.each(['screen', 'form'] as const)('template list of the %s designer', (designer) => {
  it('offers a template for every kind folder meant for this designer, under its catalogue title', () => {
    render(<TemplateList catalogue={catalogueOf(designer)} used={{}} />);
    expect(kindFolders.length).toBeGreaterThanOrEqual(17);
    for (const kind of kindFolders) {
      const declared = getWidgetKind(kind);
      expect(declared, `widgets/${kind} is not in the registry`).toBeDefined();
      const card = screen.queryByTestId(`template-${kind}`);
      if (declared!.catalogue.designers.includes(designer)) {
        expect(card, `template-${kind}`).not.toBeNull();
        expect(card).toHaveTextContent(declared!.catalogue.widgetTitle);
        expect(card!.getAttribute('draggable')).toBe('true');
      } else expect(card, `template-${kind}`).toBeNull();
    }
  });
});

describe('template search', () => {
  const catalogue = catalogueOf('screen');
  const folderOf = (name: string) => catalogue.find((c) => c.widgetType === 'M' && c.id === catalogue.find((k) => k.widgetName === name)!.parentId)!;
  const search = (text: string) => fireEvent.change(screen.getByLabelText('搜索组件'), { target: { value: text } });
  const cards = () => screen.queryAllByTestId(/^template-/).filter((el) => el.getAttribute('data-testid') !== 'template-list');

  it('keeps the kinds whose title holds the text, in their folders; the other folders are hidden', () => {
    render(<TemplateList catalogue={catalogue} used={{}} />);
    const all = cards().length;
    const title = getWidgetKind('barChart')!.catalogue.widgetTitle;
    search(title);
    const shown = cards();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(all);
    for (const card of shown) expect(card.getAttribute('aria-label')).toContain(title);
    expect(screen.getByTestId('template-barChart')).toBeVisible();
    // only the folders holding a match are listed (and open)
    const folders = [...new Set(matchTemplates(catalogue, title).map((c) => c.parentId))];
    const headers = screen.getByTestId('template-list').querySelectorAll('.ant-collapse-header');
    expect(headers.length).toBe(folders.length);
    expect(headers[0]).toHaveTextContent(folderOf('barChart').widgetTitle);
    expect(headers[0].closest('.ant-collapse-item')).toHaveClass('ant-collapse-item-active');
  });

  it('matches the widget name too, whatever the case, and says when nothing matches; clearing shows all again', () => {
    render(<TemplateList catalogue={catalogue} used={{}} />);
    const all = cards().length;
    search('  SINGLELINE ');
    expect(cards().map((c) => c.getAttribute('data-testid'))).toEqual(['template-singleLineTitle']);
    search('没有这种组件');
    expect(cards()).toHaveLength(0);
    expect(screen.getByText('无匹配的组件')).toBeInTheDocument();
    expect(screen.getByTestId('template-list').querySelector('.ant-collapse')).toBeNull();
    // antd's clear button empties the box
    fireEvent.click(within(screen.getByTestId('template-list')).getByRole('button', { name: /close-circle|清除/ }));
    expect(screen.getByLabelText('搜索组件')).toHaveValue('');
    expect(cards()).toHaveLength(all);
    expect(screen.queryByText('无匹配的组件')).toBeNull();
  });

  it('matchTemplates returns every kind for no text', () => {
    expect(matchTemplates(catalogue, ' ')).toHaveLength(catalogue.filter((c) => c.widgetType === 'C').length);
    expect(matchTemplates(catalogue, 'barchart').map((c) => c.widgetName)).toContain('barChart');
  });
});

describe('template taps (a phone-width designer)', () => {
  const catalogue = catalogueOf('screen');

  it('with onPick a tap picks the kind, not a kind at its cap; without it a tap does nothing', () => {
    // lineChart capped at one, and used once
    const capped = catalogue.map((c) => (c.widgetName === 'lineChart' ? { ...c, maxUse: 1 } : c));
    const picked: string[] = [];
    const { unmount } = render(<TemplateList catalogue={capped} used={{ lineChart: 1 }} onPick={(n) => picked.push(n)} />);
    fireEvent.click(screen.getByTestId('template-barChart'));
    expect(picked).toEqual(['barChart']);
    expect(screen.getByTestId('template-barChart').getAttribute('role')).toBe('button');
    fireEvent.click(screen.getByTestId('template-lineChart'));
    expect(picked).toEqual(['barChart']);
    unmount();
    render(<TemplateList catalogue={catalogue} used={{}} />);
    fireEvent.click(screen.getByTestId('template-barChart'));
    expect(screen.getByTestId('template-barChart').getAttribute('role')).toBeNull();
  });
});
