// Fills in the uiSchema the schema already implies, so a new property needs one schema
// line and nothing else: numbers get the limited number input; an explicit ui:widget wins.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

const isNumeric = (s: RJSFSchema) => {
  const types = ([] as unknown[]).concat(s.type ?? []);
  return (types.includes('number') || types.includes('integer')) && !s.enum && !s.oneOf;
};

export function deriveUiSchema(schema: RJSFSchema, ui: UiSchema = {}): UiSchema {
  const out: UiSchema = { ...ui };
  if (isNumeric(schema) && !ui['ui:widget'] && !ui['ui:field']) out['ui:widget'] = 'number';
  if (schema.properties) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (typeof sub === 'object') out[key] = deriveUiSchema(sub as RJSFSchema, (ui[key] as UiSchema) ?? {});
    }
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    out.items = deriveUiSchema(schema.items as RJSFSchema, (ui.items as UiSchema) ?? {});
  }
  return out;
}
