// Where form fields run as one Formily form (preview and fill-in): the form, what a submit does and how an
// image is uploaded. Without a provider (the designer's canvas, the widget catalogue) fields draw as they
// will look, disabled.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createForm, type Form } from '@formily/core';
import { FormProvider } from '@formily/react';
import type { LogicField } from '../../common/formLogic';
import { logicFieldsOf, type LogicWidget } from './logic';

export interface FormRun {
  form: Form;
  /** 'preview' validates but stores nothing; 'fill' submits to the server */
  mode: 'preview' | 'fill';
  /** called with the values once they pass the client's checks; answers the thank-you text */
  submit(values: Record<string, unknown>): Promise<string | void>;
  uploadImage(file: File): Promise<{ url: string; alt?: string }>;
  /** the page's fields as the logic reads them (common/formLogic.ts): each field's reaction evaluates them all */
  fields: LogicField[];
}

const Ctx = createContext<FormRun | null>(null);

export function useFormRun(): FormRun | null {
  return useContext(Ctx);
}

/** `widgets`: the page's widgets, whose fields' logic runs together (without them a field's logic reads itself alone). */
export function FormRunProvider({ mode, submit, uploadImage, widgets, children }: Omit<FormRun, 'form' | 'fields'> & { widgets?: readonly LogicWidget[]; children: ReactNode }) {
  const form = useMemo(() => createForm({ validateFirst: true }), []);
  const fields = useMemo(() => logicFieldsOf(widgets ?? []), [widgets]);
  const value = useMemo(() => ({ form, mode, submit, uploadImage, fields }), [form, mode, submit, uploadImage, fields]);
  return (
    <Ctx.Provider value={value}>
      <FormProvider form={form}>{children}</FormProvider>
    </Ctx.Provider>
  );
}
