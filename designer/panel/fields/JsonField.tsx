import type { FieldProps } from '@rjsf/utils';
import { PanelItem } from './PanelItem';
import { JsonEditor } from '../editor/JsonEditor';
import { useJsonText } from './useJsonText';

// Stable empties: the JSON text state resets whenever its value's identity changes.
const EMPTY_ARRAY: unknown[] = [];
const EMPTY_OBJECT: Record<string, unknown> = {};

/** Any object/array property edited as JSON (e.g. chartOption). ui:options.height sets the editor height. */
export function JsonField({ formData, onChange, fieldPathId, schema, uiSchema, name }: FieldProps) {
  const height = Number(uiSchema?.['ui:options']?.height ?? 200);
  const expected = schema.type === 'array' ? 'array' : 'object';
  const { text, error, onText } = useJsonText(
    formData ?? (expected === 'array' ? EMPTY_ARRAY : EMPTY_OBJECT),
    (v) => onChange(v, fieldPathId.path),
    (v) => ((expected === 'array' ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v)) ? null : `需要 JSON ${expected === 'array' ? '数组' : '对象'}`),
  );
  return (
    <PanelItem label={schema.title ?? name} validateStatus={error ? 'error' : undefined} help={error || undefined}>
      <JsonEditor value={text} onChange={onText} height={height} ariaLabel={schema.title ?? name} />
    </PanelItem>
  );
}
