// The template list shows every widget kind the registry found in its folder (widgets/<kind>/), in the
// designers the kind declares: a new kind folder appears here with no other change.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import { getWidgetKind, widgetCatalogueTree, type CatalogueEntry } from '../../widgets';
import { TemplateList } from './TemplateList';

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
