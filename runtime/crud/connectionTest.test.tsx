// Connection tests show the server's reason and wait as long as declared; a copy asks for its secrets again.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeServices, renderPage, rows, type Recorded } from './test-utils';
import type { CallOptions, CrudServices } from './services';
import type { DialogDecl, PageDeclaration } from './types';
import { failureReason } from './connectionTest';
import { formSchemaFor, initialValuesFor } from './dialog-schema';
import datasource from '../../schemas/pages/datasource.page.json';
import ftp from '../../schemas/pages/ftp.page.json';
import etl from '../../schemas/pages/etl.page.json';
import model from '../../schemas/pages/model.page.json';

const REENTER = '复制的记录不带密码，请重新输入密码';

/** fakeServices plus requestAnswer: `answer` gives data and message of a call. */
function answering(answer: (r: Recorded) => { data: unknown; msg: string }) {
  const { services, calls } = fakeServices((r) => answer(r).data);
  const timeouts: Array<number | undefined> = [];
  const withAnswer: CrudServices = {
    ...services,
    async requestAnswer<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}) {
      timeouts.push(opts.timeoutMs);
      const r = { method, path, ...opts };
      calls.push(r);
      return answer(r) as { data: T; msg: string };
    },
  };
  return { services: withAnswer, calls, timeouts };
}

const openIn = async (label: string, rowIndex = 0) => {
  const buttons = await screen.findAllByRole('button', { name: new RegExp(`^${label.split('').join('\\s?')}$`) });
  await act(async () => fireEvent.click(buttons[rowIndex]));
  return screen.findByRole('dialog');
};

describe('connection tests say why they failed', () => {
  it('the data-source row test shows 连接失败 with the server reason, and waits past the longest maxWaitTime', async () => {
    const dsRows = rows(1, () => ({ id: 3, dsName: 'ds', dbType: 'postgresql', pwd: '******', status: 1, maxWaitTime: 3 }));
    const { services, timeouts } = answering((r) => (r.path.endsWith('/test') ? { data: false, msg: '连接失败：等待超时（3秒内没有应答）' } : { data: { records: dsRows, total: 1 }, msg: '' }));
    renderPage(datasource as PageDeclaration, services);
    await screen.findByText('ds');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^测\s?试$/ })));
    expect(await screen.findByText('连接失败：等待超时（3秒内没有应答）')).toBeInTheDocument();
    // maxWaitTime may be up to 600 s: the request layer's 120 s must not answer 服务器请求超时 first
    expect(timeouts).toEqual([610_000]);
  });

  it('the FTP and ETL dialog test buttons show the reason', async () => {
    for (const [page, reason] of [[ftp, '账号或密码错误'], [etl, '连接被拒绝（该地址和端口上没有服务在监听）']] as const) {
      const list = rows(1, () => ({ id: 1, envType: 'dev', nodeCode: 'N0', nodeName: '节点0', ip: '10.0.0.1', port: 21, username: 'u', password: '******', status: 1 }));
      const { services, calls } = answering((r) => (r.path.endsWith('/validateConn') ? { data: false, msg: `连接失败：${reason}` } : { data: { records: list, total: 1 }, msg: '' }));
      const view = renderPage(page as PageDeclaration, services);
      await screen.findByText('节点0');
      const dlg = await openIn('编辑');
      await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-test')));
      expect(await screen.findByText(`连接失败：${reason}`)).toBeInTheDocument();
      expect(calls.find((c) => c.path.endsWith('/validateConn'))).toMatchObject({ method: 'POST', body: { id: 1, ip: '10.0.0.1' } });
      view.unmount();
    }
  });

  it('a bare false (no reason, or services without requestAnswer) keeps the declared failure text', async () => {
    expect(failureReason('连接失败')).toBe('');
    expect(failureReason('')).toBe('');
    expect(failureReason('连接失败：数据库不存在')).toBe('数据库不存在');
    const dsRows = rows(1, () => ({ id: 3, dsName: 'ds', dbType: 'sqlite', status: 1 }));
    const { services } = fakeServices((r) => (r.path.endsWith('/test') ? false : { records: dsRows, total: 1 }));
    renderPage(datasource as PageDeclaration, services);
    await screen.findByText('ds');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^测\s?试$/ })));
    expect(await screen.findByText('连接失败')).toBeInTheDocument();
  });
});

describe('a copy asks for its password again (dialog.reenterInCopy)', () => {
  it('is declared on every page whose records keep a password, the test actions with a timeout past maxWaitTime', () => {
    for (const page of [datasource, model, ftp, etl] as unknown as PageDeclaration[]) {
      expect(page.dialog?.reenterInCopy, page.id).toEqual({ fields: [page.id === 'ftp' || page.id === 'etl' ? 'password' : 'pwd'], message: REENTER });
      for (const a of page.rowActions ?? []) if (a.action === 'test') expect(a.timeout, page.id).toBeGreaterThan(600);
    }
  });

  it('the renderer: emptied in copy, the hint under the field and required with the same words, only when the record had one', () => {
    const dialog = (datasource as unknown as PageDeclaration).dialog as DialogDecl;
    const row = { id: 9, dsName: 'a', dbType: 'postgresql', pwd: '******', username: 'u' };
    expect(initialValuesFor(dialog, 'copy', row, 'id')).not.toHaveProperty('pwd');
    const copy = formSchemaFor(dialog, 'copy', row).properties.pwd;
    expect(copy.description).toBe(REENTER);
    // required with the hint's words, then the declared field's shared rules (common/dialog-rules.ts: its length)
    expect(copy['x-validator']).toEqual([{ required: true, message: REENTER }, { validator: expect.any(Function) }]);
    // the declared reactions (shown only for network databases) are kept, the hint's own comes after them
    const reactions = copy['x-reactions'] as unknown[];
    expect(reactions[0]).toEqual(dialog.schema.properties.pwd['x-reactions']);
    expect(typeof reactions[1]).toBe('function');
    // edit and new are as declared
    for (const mode of ['edit', 'new'] as const) {
      const f = formSchemaFor(dialog, mode, row).properties.pwd;
      expect(f.description).toBeUndefined();
      expect(f['x-validator']).toEqual([{ required: true, message: '请输入密码' }, { validator: expect.any(Function) }]);
    }
    // a record without a password (a SQLite file, an anonymous FTP account) asks for nothing
    expect(formSchemaFor(dialog, 'copy', { ...row, pwd: '' }).properties.pwd.description).toBeUndefined();
    // the declaration itself stays untouched (the server validates with it)
    expect((datasource as unknown as PageDeclaration).dialog!.schema.properties.pwd).not.toHaveProperty('description');
  });

  it('the data-source copy dialog opens with the password empty, shows the hint and does not save without it', async () => {
    const dsRows = rows(1, () => ({ id: 3, dsName: 'ds', dbType: 'postgresql', hostName: '10.0.0.5', port: 5432, dbName: 'sales', username: 'u', pwd: '******', status: 1, maxWaitTime: 120, maxActive: 20, queryTimeout: 300 }));
    const { services, calls } = fakeServices((r) => (r.path.endsWith('/info/get') ? dsRows[0] : r.path.endsWith('/save') ? 12 : { records: dsRows, total: 1 }));
    renderPage(datasource as PageDeclaration, services);
    await screen.findByText('ds');
    const dlg = await openIn('复制');
    expect(within(dlg).getByText('复制数据源')).toBeInTheDocument();
    const pwd = within(dlg).getByPlaceholderText('请输入密码') as HTMLInputElement;
    expect(pwd.value).toBe('');
    expect(within(dlg).getByText(REENTER)).toBeInTheDocument();
    fireEvent.change(within(dlg).getByDisplayValue('ds'), { target: { value: 'ds_copy' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(dlg.querySelector('.ant-formily-item-error-help')?.textContent).toBe(REENTER));
    // said once: the hint steps aside while the error says it
    expect(within(dlg).getAllByText(REENTER)).toHaveLength(1);
    expect(calls.some((c) => c.path.endsWith('/save'))).toBe(false);
    fireEvent.change(pwd, { target: { value: 'Again#Pw_1' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/save'))?.body).toMatchObject({ dsName: 'ds_copy', pwd: 'Again#Pw_1' }));
  });

  it('an FTP server without a password is copied without asking for one', async () => {
    const list = rows(1, () => ({ id: 1, envType: 'dev', nodeCode: 'N0', nodeName: '匿名', ip: '10.0.0.1', port: 21, username: 'anonymous', password: '', status: 1 }));
    const { services, calls } = fakeServices((r) => (r.path.endsWith('/save') ? 2 : { records: list, total: 1 }));
    renderPage(ftp as PageDeclaration, services);
    await screen.findByText('匿名');
    const dlg = await openIn('复制');
    expect(within(dlg).queryByText(REENTER)).toBeNull();
    fireEvent.change(within(dlg).getByDisplayValue('N0'), { target: { value: 'N1' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/save'))?.body).toMatchObject({ nodeCode: 'N1' }));
  });
});
