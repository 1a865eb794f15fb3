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
import { DatasetOptionsField } from './fields/DatasetOptionsField';
import { FormLogicField } from './fields/FormLogicField';
import { JsonField } from './fields/JsonField';
import { chineseErrors } from './messages';
import type { PanelContext, PanelServices } from './services';
import { panelSchema } from './panelSchema';
import { panelValidator } from './validator';
import './SchemaPanel.css';
import { ColorWidget } from './widgets/ColorWidget';
import { DictWidget } from './widgets/DictWidget';
import { FormFieldWidget } from './widgets/FormFieldWidget';
import { ImageWidget } from './widgets/ImageWidget';
import { NumberWidget } from './widgets/NumberWidget';
import { VariableWidget } from './widgets/VariableWidget';

const WIDGETS: RegistryWidgetsType = { color: ColorWidget, dict: DictWidget, number: NumberWidget, image: ImageWidget, variable: VariableWidget, formField: FormFieldWidget };
const FIELDS: RegistryFieldsType = { json: JsonField, dataConfig: DataConfigField, dataMapping: DataMappingField, formLogic: FormLogicField, datasetOptions: DatasetOptionsField };
const NO_SERVICES: PanelServices = {};
// Two columns for short inputs, full width for text, colours, lists and editors
// (@rjsf/antd looks up ui:widget, then ui:field, then the schema type).
const COL_SPAN = { formLogic: 24, datasetOptions: 24, formField: 24, json: 24, dataConfig: 24, dataMapping: 24, number: 12, dict: 12, image: 24, variable: 24, select: 12, checkbox: 12, integer: 12, boolean: 12, color: 24, string: 24, array: 24, object: 24 };

export interface SchemaPanelProps<T> {
  schema: RJSFSchema;
  value: T;
  uiSchema?: UiSchema;
  /** Called only with values that pass the schema. */
  onChange?: (value: T) => void;
  services?: PanelServices;
  disabled?: boolean;
}

function SchemaPanelImpl<T>({ schema: declared, value, uiSchema, onChange, services = NO_SERVICES, disabled }: SchemaPanelProps<T>) {
  // rjsf keeps the draft (what the user sees, valid or not) in its own state. It is
  // re-seeded only when the value changes from outside (another widget selected, a drag on
  // the canvas), not when the parent echoes a value we just emitted; so an applied edit does
  // not render every field a second time.
  const [state, setState] = useState({ source: value, seed: value, live: value });
  const schema = useMemo(() => panelSchema(declared), [declared]);
  const emitted = useRef<T | undefined>(undefined);
  // The latest draft: whenever the form element is rebuilt it must get this, since rjsf
  // takes a re-render with other formData as a reset.
  const draftRef = useRef(value);
  let { seed, live } = state;
  if (state.source !== value) {
    if (value !== emitted.current) seed = live = draftRef.current = value;
    setState({ source: value, seed, live });
  }

  const ui = useMemo<UiSchema>(
    () => ({ ...deriveUiSchema(schema, uiSchema), 'ui:submitButtonOptions': { norender: true }, 'ui:title': '' }),
    [schema, uiSchema],
  );
  // Fields such as the data mapping read sibling values; only panels that have them
  // follow the live draft in their context (others keep a stable one).
  const readsRoot = useMemo(() => usesRootFields(ui), [ui]);
  const rootData = readsRoot ? live : seed;
  const transformErrors = useMemo(() => chineseErrors(schema), [schema]);
  const formContext = useMemo<PanelContext & Record<string, unknown>>(
    () => ({ services, rootData, rowGutter: 12, labelAlign: 'left', colSpan: COL_SPAN }),
    [services, rootData],
  );

  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const handleChange = useCallback(
    (e: IChangeEvent) => {
      const next = e.formData as T;
      draftRef.current = next;
      if (readsRoot) setState((s) => ({ ...s, live: next }));
      const { errors } = panelValidator.validateFormData(next, schema, undefined, transformErrors, ui);
      if (errors.length === 0) {
        emitted.current = next;
        onChangeRef.current?.(next);
      }
    },
    [schema, transformErrors, ui, readsRoot],
  );

  // Memoized: on the parent's echo nothing here changed, so React skips the whole form.
  // (seed is a dependency: an outside change rebuilds it with the new draft.)
  return useMemo(
    () => (
      <ConfigProvider componentSize="small">
        <Form
          className="schema-panel"
          schema={schema}
          uiSchema={ui}
          formData={draftRef.current}
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
    ),
    // `seed` is read through draftRef; listing it rebuilds the form on an outside change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema, ui, seed, formContext, transformErrors, disabled, handleChange],
  );
}

const ROOT_READING_FIELDS = new Set(['dataConfig', 'dataMapping', 'formLogic']);

function usesRootFields(ui: UiSchema): boolean {
  return Object.entries(ui).some(([k, v]) => (k === 'ui:field' && ROOT_READING_FIELDS.has(String(v))) || (v !== null && typeof v === 'object' && !k.startsWith('ui:') && usesRootFields(v as UiSchema)));
}

export const SchemaPanel = memo(SchemaPanelImpl) as typeof SchemaPanelImpl;
