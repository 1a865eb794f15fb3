// An input whose value a call explains as it is typed (`x-explain` in the declaration), e.g. what a cron expression
// means and when it next runs, or why the server refuses it. The call's answer: { description, lines }.
import { useEffect, useState } from 'react';
import { Input, Spin, Typography } from 'antd';
import type { InputProps } from 'antd';
import { observer, useForm } from '@formily/react';
import { useCrudServices } from '../services';
import { parseCall } from '../template';

/**
 * `x-explain`: the call; this field's value is sent as `param`, and other fields of the form as `fields` names them
 * (parameter → field). No {{…}} templates: in a dialog those are Formily's expressions, checked as such.
 */
export interface ExplainDecl {
  api: string;
  param: string;
  fields?: Record<string, string>;
}
interface Explanation {
  description?: string;
  lines?: string[];
}

/** How long typing pauses before the call is made. */
export const EXPLAIN_DELAY_MS = 300;

export const ExplainedInput = observer(function ExplainedInput({ explain, value, ...rest }: InputProps & { explain?: ExplainDecl }) {
  const form = useForm();
  const services = useCrudServices();
  const values = form.values as Record<string, unknown>;
  const params: Record<string, unknown> = explain ? { [explain.param]: value ?? '' } : {};
  for (const [name, field] of Object.entries(explain?.fields ?? {})) params[name] = values[field] ?? '';
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
