// An input whose value a call explains as it is typed (`x-explain` in the declaration), e.g. what a cron expression
// means and when it next runs, or why the server refuses it. The call's answer: { description, lines }.
import { useEffect, useMemo, useState } from 'react';
import { Input, Spin, Typography } from 'antd';
import type { InputProps } from 'antd';
import { observer, useForm } from '@formily/react';
import { useCrudServices } from '../services';
import { fillParams, parseCall } from '../template';

/** `x-explain`: the call, with `{{value}}` for this field's value and `{{field}}` for another field of the form. */
export interface ExplainDecl {
  api: string;
  params?: Record<string, unknown>;
}
interface Explanation {
  description?: string;
  lines?: string[];
}

/** How long typing pauses before the call is made. */
export const EXPLAIN_DELAY_MS = 300;

/** `explain` is the declaration as JSON text (dialog-schema.ts), or the declaration itself. */
export const ExplainedInput = observer(function ExplainedInput({ explain: declared, value, ...rest }: InputProps & { explain?: ExplainDecl | string }) {
  const explain = useMemo(() => (typeof declared === 'string' ? (JSON.parse(declared) as ExplainDecl) : declared), [declared]);
  const form = useForm();
  const services = useCrudServices();
  const params = fillParams(explain?.params, { ...(form.values as Record<string, unknown>), value });
  const key = JSON.stringify(params);
  const typed = String(value ?? '').trim() !== '';
  const [state, setState] = useState<{ loading: boolean; answer?: Explanation; error?: string }>({ loading: false });
  useEffect(() => {
    if (!explain?.api || !typed) {
      setState({ loading: false });
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      const { method, path } = parseCall(explain.api);
      const p = JSON.parse(key) as Record<string, unknown>;
      setState((s) => ({ ...s, loading: true }));
      services
        .request<Explanation>(method, path, method === 'GET' ? { params: p, silent: true } : { body: p, silent: true })
        .then((answer) => live && setState({ loading: false, answer }))
        .catch((e: unknown) => live && setState({ loading: false, error: e instanceof Error ? e.message : String(e) }));
    }, EXPLAIN_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, typed, explain?.api, services]);
  return (
    <div data-explained>
      <Input value={value} {...rest} />
      {typed && (
        <div role="status" aria-live="polite" style={{ marginTop: 4, fontSize: 12, lineHeight: '20px' }}>
          {state.loading && !state.answer && !state.error ? (
            <Spin size="small" />
          ) : state.error ? (
            <Typography.Text type="danger">{state.error}</Typography.Text>
          ) : state.answer ? (
            <>
              {state.answer.description && <Typography.Text strong>{state.answer.description}</Typography.Text>}
              {(state.answer.lines ?? []).map((l) => (
                <div key={l}>
                  <Typography.Text type="secondary">{l}</Typography.Text>
                </div>
              ))}
            </>
          ) : null}
        </div>
      )}
    </div>
  );
});
