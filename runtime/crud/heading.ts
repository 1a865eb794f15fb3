// A page about one record (`heading`: e.g. a form's entries) names that record above its search bar: the declared
// call fetches it once per address and its fields fill the text. Until it answers, or when it fails, the page's
// own title stands in, so the heading never shows an unfilled template.
import { useEffect, useState } from 'react';
import { useCrudServices } from './services';
import { fill, routeCall } from './template';
import type { PageDeclaration } from './types';

export function useHeading(decl: PageDeclaration['heading'], route: Record<string, string>): string | undefined {
  const services = useCrudServices();
  const [text, setText] = useState<string>();
  const routeKey = JSON.stringify(route);
  useEffect(() => {
    setText(undefined);
    // an address without the record's key shows the page's own notice; nothing to ask for
    if (!decl) return;
    const call = routeCall(decl.api, decl.params, JSON.parse(routeKey) as Record<string, string>);
    if (!call) return;
    let live = true;
    services
      .request<Record<string, unknown>>(call.method, call.path, { params: call.params })
      .then((record) => live && record && typeof record === 'object' && setText(fill(decl.text, record)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [decl, routeKey, services]);
  return text;
}
