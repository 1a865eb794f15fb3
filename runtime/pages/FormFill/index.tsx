// ViewFormFill?pageId (our own route, /form/fill): a designed form filled in. The form at its designed size,
// scaled down to fit the screen (a phone or a desktop); its fields are one Formily form, checked in the
// browser and again on the server against the form's own fields; a thank-you state after success. A form
// open to anyone needs no sign-in; one for signed-in users asks for it.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { CanvasStage } from '../../../widgets/stage/CanvasStage';
import { preloadWidgetKinds, type WidgetEntity } from '../../../widgets';
import { FormRunProvider } from '../../../widgets/formField/context';
import { ApiError, get, post, upload } from '../../core/request';
import { idParam } from '../../ui/leave';
import { pageOf, widgetOf, type ServerPage, type ServerWidget } from '../../datav/services';
import type { DesignerPage } from '../../../common/canvas';

interface FillPage extends ServerPage {
  fillAccess?: 'login' | 'public';
  accepting?: number | boolean;
}

type State =
  | { at: 'loading' }
  | { at: 'failed'; title: string; sub?: string; login?: boolean }
  | { at: 'ready'; page: DesignerPage & { accepting: boolean }; widgets: WidgetEntity[] };

function useViewportWidth() {
  const [w, setW] = useState(window.innerWidth);
  useEffect(() => {
    const on = () => setW(window.innerWidth);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return w;
}

export default function FormFill() {
  const { search } = useLocation();
  const id = idParam(search, 'pageId') ?? idParam(search, 'formId');
  const [state, setState] = useState<State>(id ? { at: 'loading' } : { at: 'failed', title: '缺少表单编号', sub: '请检查填写链接是否完整' });
  const [round, setRound] = useState(0);
  const [thanks, setThanks] = useState<string | null>(null);
  const width = useViewportWidth();

  useEffect(() => {
    if (!id) return;
    setState({ at: 'loading' });
    // quiet: a form for signed-in users says so here instead of the session-expired box
    get<{ page: FillPage; widgets: ServerWidget[] }>('/jimu/form/fill/get', { id }, { quiet: true }).then(
      async (r) => {
        document.title = `${r.page.pageName} - 填写`;
        const widgets = r.widgets.map(widgetOf);
        // every field is in the form before it can be submitted: the code of the form's kinds first (widgets/kindCode.ts)
        await preloadWidgetKinds(widgets.map((w) => w.widgetName));
        setState({ at: 'ready', page: { ...pageOf(r.page), accepting: r.page.accepting !== 0 && r.page.accepting !== false }, widgets });
      },
      (e: unknown) => {
        const err = e instanceof ApiError ? e : null;
        if (err?.status === 2) setState({ at: 'failed', title: '该表单仅限登录用户填写', sub: '请先登录，再重新打开此链接', login: true });
        else setState({ at: 'failed', title: err?.message || '表单加载失败', sub: '请检查填写链接，或联系表单的设计者' });
      },
    );
  }, [id]);

  const submit = useCallback(async (values: Record<string, unknown>) => {
    const res = await post<{ id: number }>('/jimu/form/fill/submit', { values }, { params: { id }, silent: true }).then(
      () => null,
      (e: unknown) => (e instanceof Error ? e : new Error('提交失败')),
    );
    if (res) throw res; // the submit button shows the server's message (the field's own words)
    const text = state.at === 'ready' ? state.widgets.find((w) => w.widgetName === 'formSubmit')?.widgetProps.viewProps.successText : undefined;
    setThanks(typeof text === 'string' && text ? text : '提交成功，感谢您的填写！');
  }, [id, state]);

  const uploadImage = useCallback(async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return upload<{ url: string; alt?: string }>(`/jimu/form/fill/upload?id=${id}`, form);
  }, [id]);

  const scale = useMemo(() => (state.at === 'ready' ? Math.min(1, (width - 16) / state.page.width) : 1), [state, width]);

  if (state.at === 'loading') return <Spin style={{ display: 'block', marginTop: '30vh' }} />;
  if (state.at === 'failed')
    return (
      <Result
        status={state.login ? '403' : '404'}
        title={state.title}
        subTitle={state.sub}
        extra={state.login ? <Button type="primary" href="/login">去登录</Button> : undefined}
      />
    );
  if (thanks !== null)
    return (
      <Result
        status="success"
        title={thanks}
        extra={
          <Button
            onClick={() => {
              setThanks(null);
              setRound((r) => r + 1); // a fresh form
            }}
          >
            再填一份
          </Button>
        }
      />
    );
  if (!state.page.accepting) return <Result status="info" title="该表单已停止收集" subTitle="感谢关注，如有疑问请联系表单的设计者" />;
  return (
    <div data-testid="form-fill" data-scale={scale.toFixed(4)} style={{ minHeight: '100vh', background: '#0b0d13', display: 'flex', justifyContent: 'center', padding: '8px 0' }}>
      <div style={{ width: state.page.width * scale, height: state.page.height * scale }}>
        <FormRunProvider key={round} mode="fill" submit={submit} uploadImage={uploadImage} widgets={state.widgets}>
          <CanvasStage canvas={state.page} widgets={state.widgets} scale={scale} />
        </FormRunProvider>
      </div>
    </div>
  );
}
