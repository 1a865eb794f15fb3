// The fields of the form being designed, as the field logic editor and the cascade picker list them: every
// widget of a field kind with a name, labelled as the server names it (its label, else the kind's title).
import { widgetDeclarations } from '../../widgets/declarations';
import { fieldDefFor, type FieldProps } from '../../widgets/formField/rules';
import type { PageField } from './services';

export function pageFieldsOf(widgets: ReadonlyArray<{ widgetName: string; widgetProps: { viewProps: object } }>): PageField[] {
  const out: PageField[] = [];
  for (const w of widgets) {
    const p = w.widgetProps.viewProps as FieldProps;
    const def = fieldDefFor(w.widgetName, p, widgetDeclarations[w.widgetName]?.catalogue.widgetTitle ?? w.widgetName);
    if (!def || !p.field || out.some((f) => f.field === p.field)) continue;
    out.push({ field: p.field, label: def.label, widgetName: w.widgetName, ...(def.options ? { options: def.options.map((o) => ({ label: o.label, value: o.value })) } : {}) });
  }
  return out;
}
