// Where form fields run as one Formily form (preview and fill-in): the form, what a submit does and how an
// image is uploaded. Without a provider (the designer's canvas, the widget catalogue) fields draw as they
// will look, disabled.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createForm, type Form } from '@formily/core';
import { FormProvider } from '@formily/react';

export interface FormRun {
  form: Form;
  /** 'preview' validates but stores nothing; 'fill' submits to the server */
  mode: 'preview' | 'fill';
  /** called with the values once they pass the client's checks; answers the thank-you text */
  submit(values: Record<string, unknown>): Promise<string | void>;
  uploadImage(file: File): Promise<{ url: string; alt?: string }>;
}

const Ctx = createContext<FormRun | null>(null);

export function useFormRun(): FormRun | null {
  return useContext(Ctx);
}

export function FormRunProvider({ mode, submit, uploadImage, children }: Omit<FormRun, 'form'> & { children: ReactNode }) {
  const form = useMemo(() => createForm({ validateFirst: true }), []);
  const value = useMemo(() => ({ form, mode, submit, uploadImage }), [form, mode, submit, uploadImage]);
  return (
    <Ctx.Provider value={value}>
      <FormProvider form={form}>{children}</FormProvider>
    </Ctx.Provider>
  );
}
