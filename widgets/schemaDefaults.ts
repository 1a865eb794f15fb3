// Defaults are declared once, as JSON Schema `default`s; this reads them out.
import type { RJSFSchema } from '@rjsf/utils';

export function defaultsOf(schema: RJSFSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.type === 'object' && schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (typeof sub !== 'object') continue;
      const value = defaultsOf(sub as RJSFSchema);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return undefined;
}
