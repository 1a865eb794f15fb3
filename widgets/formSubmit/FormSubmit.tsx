// 表单控件 · 提交按钮: validates every field of the page's form (client rules, same messages as the server),
// then hands the values to the run (preview: nothing stored; fill-in: posted and checked again there).
import { useState } from 'react';
import { Button, ConfigProvider } from 'antd';
import { widgetDeclarations } from '../declarations';
import { useFormRun } from '../formField/context';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

// the declared defaults, for buttons placed before the kind had colours
const declared = widgetDeclarations.formSubmit?.viewProps.properties as Record<string, { default?: string }> | undefined;
const DEFAULT_BUTTON = declared?.buttonColor?.default ?? '#1668DC';
const DEFAULT_TEXT = declared?.color?.default ?? '#FFFFFF';

export function FormSubmit({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formSubmit'>>) {
  const run = useFormRun();
  const [busy, setBusy] = useState(false);
  const [fault, setFault] = useState<string | null>(null);
  const button = v.buttonColor || DEFAULT_BUTTON;
  const text = v.color || DEFAULT_TEXT;
  const submit = async () => {
    if (!run) return;
    setFault(null);
    setBusy(true);
    try {
      await run.form.submit(run.submit);
    } catch (e) {
      // Formily rejects with the field errors (shown under each field), the run with the server's message
      setFault(Array.isArray(e) ? '请检查表单中标红的项' : e instanceof Error && e.message ? e.message : '提交失败');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-widget="formSubmit" style={{ width: '100%', height: '100%', position: 'relative' }}>
      {/* the declared colours (a readable pair by default: widgets/contrast.test.ts); antd derives hover and
          active from them. On the designer's canvas the button is disabled but drawn as it will look. */}
      <ConfigProvider theme={{ token: { colorPrimary: button, colorTextLightSolid: text } }}>
        <Button type="primary" block loading={busy} disabled={!run} onClick={() => void submit()} style={{ height: '100%', fontSize: v.fontSize, ...(run ? {} : { background: button, borderColor: button, color: text }) }}>
          {v.text}
        </Button>
      </ConfigProvider>
      {fault && (
        <div role="alert" style={{ position: 'absolute', top: '100%', left: 0, right: 0, marginTop: 4, color: '#ff4d4f', fontSize: 12, textAlign: 'center' }}>
          {fault}
        </div>
      )}
    </div>
  );
}
