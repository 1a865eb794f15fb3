// rjsf merges schema defaults into form data element by element, so a sample-rows default
// would leak into user rows (row 0 keeps the sample's extra fields). The panel is always
// given a complete value (the registry fills defaults when a widget is created), so defaults
// that hold arrays are dropped from the schema the form sees; scalar defaults stay, so a
// property added to a schema still starts at its default.
import type { RJSFSchema } from '@rjsf/utils';

const holdsArray = (v: unknown): boolean => Array.isArray(v) || (v !== null && typeof v === 'object' && Object.values(v).some(holdsArray));

export function panelSchema(schema: RJSFSchema): RJSFSchema {
  const out: RJSFSchema = { ...schema };
  if (holdsArray(out.default)) delete out.default;
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, typeof v === 'object' ? panelSchema(v as RJSFSchema) : v]),
    );
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) out.items = panelSchema(schema.items as RJSFSchema);
  return out;
}
