// The one property panel: JSON Schema (+ uiSchema) in, an editable antd panel out.
// Invalid input shows the schema's Chinese message and is not passed on.
import Form from '@rjsf/antd';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, RegistryFieldsType, RegistryWidgetsType, UiSchema } from '@rjsf/utils';
import { ConfigProvider } from 'antd';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { deriveUiSchema } from './deriveUi';
import { DataConfigField } from './fields/DataConfigField';
import { DataMappingField } from './fields/DataMappingField';
import { JsonField } from './fields/JsonField';
import { chineseErrors } from './messages';
import type { PanelContext, PanelServices } from './services';
import { panelValidator } from './validator';
import './SchemaPanel.css';
import { ColorWidget } from './widgets/ColorWidget';
import { DictWidget } from './widgets/DictWidget';
import { NumberWidget } from './widgets/NumberWidget';

const WIDGETS: RegistryWidgetsType = { color: ColorWidget, dict: DictWidget, number: NumberWidget };
const FIELDS: RegistryFieldsType = { json: JsonField, dataConfig: DataConfigField, dataMapping: DataMappingField };
const NO_SERVICES: PanelServices = {};
// Two columns for short inputs, full width for text, colours, lists and editors
// (@rjsf/antd looks up ui:widget, then ui:field, then the schema type).
const COL_SPAN = { json: 24, dataConfig: 24, dataMapping: 24, number: 12, dict: 12, select: 12, checkbox: 12, integer: 12, boolean: 12, color: 24, string: 24, array: 24, object: 24 };

export interface SchemaPanelProps<T> {
  schema: RJSFSchema;
  value: T;
  uiSchema?: UiSchema;
  /** Called only with values that pass the schema. */
  onChange?: (value: T) => void;
  services?: PanelServices;
  disabled?: boolean;
}

function SchemaPanelImpl<T>({ schema, value, uiSchema, onChange, services = NO_SERVICES, disabled }: SchemaPanelProps<T>) {
  // The draft is what the user sees; it resets when the value changes from outside
  // (another widget selected, a drag on the canvas) but not when it echoes our own change.
  const [state, setState] = useState({ source: value, draft: value });
  const emitted = useRef<T | undefined>(undefined);
  let draft = state.draft;
  if (state.source !== value) {
    draft = value === emitted.current ? state.draft : value;
    setState({ source: value, draft });
  }

  const ui = useMemo<UiSchema>(
    () => ({ ...deriveUiSchema(schema, uiSchema), 'ui:submitButtonOptions': { norender: true }, 'ui:title': '' }),
    [schema, uiSchema],
  );
  const transformErrors = useMemo(() => chineseErrors(schema), [schema]);
  const formContext = useMemo<PanelContext & Record<string, unknown>>(
    () => ({ services, rootData: draft, rowGutter: 12, labelAlign: 'left', colSpan: COL_SPAN }),
    [services, draft],
  );

  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const handleChange = useCallback(
    (e: IChangeEvent) => {
      const next = e.formData as T;
      setState((s) => ({ ...s, draft: next }));
      const { errors } = panelValidator.validateFormData(next, schema, undefined, transformErrors, ui);
      if (errors.length === 0) {
        emitted.current = next;
        onChangeRef.current?.(next);
      }
    },
    [schema, transformErrors, ui],
  );

  return (
    <ConfigProvider componentSize="small">
      <Form
        className="schema-panel"
        schema={schema}
        uiSchema={ui}
        formData={draft}
        validator={panelValidator}
        widgets={WIDGETS}
        fields={FIELDS}
        formContext={formContext}
        transformErrors={transformErrors}
        liveValidate="onChange"
        showErrorList={false}
        noHtml5Validate
        disabled={disabled}
        onChange={handleChange}
      />
    </ConfigProvider>
  );
}

export const SchemaPanel = memo(SchemaPanelImpl) as typeof SchemaPanelImpl;
