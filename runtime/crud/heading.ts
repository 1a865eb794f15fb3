// A page about one record (`heading`: e.g. a form's entries) names that record above its search bar: the declared
// call fetches it once per address and its fields fill the text. Until it answers, or when it fails, the page's
// own title stands in, so the heading never shows an unfilled template.
import { useEffect, useState } from 'react';
import { useCrudServices } from './services';
import { fill, fillParams, missingRouteValues, parseCall } from './template';
import type { PageDeclaration } from './types';

export function useHeading(decl: PageDeclaration['heading'], route: Record<string, string>): string | undefined {
  const services = useCrudServices();
  const [text, setText] = useState<string>();
  const routeKey = JSON.stringify(route);
  useEffect(() => {
    setText(undefined);
    const values = JSON.parse(routeKey) as Record<string, string>;
    // an address without the record's key shows the page's own notice; nothing to ask for
    if (!decl || missingRouteValues(decl.params, values).length) return;
    let live = true;
    const { method, path } = parseCall(decl.api);
    services
      .request<Record<string, unknown>>(method, path, { params: fillParams(decl.params, values) })
      .then((record) => live && record && typeof record === 'object' && setText(fill(decl.text, record)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [decl, routeKey, services]);
  return text;
}
