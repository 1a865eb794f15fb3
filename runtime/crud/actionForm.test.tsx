// An action's own form (`form`, values sent with its call) and a value the call answers once (`result`).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage, type Recorded } from './test-utils';
import type { PageDeclaration } from './types';

const page = {
  id: 'userDemo',
  title: '用户',
  nameField: 'userName',
  api: { search: 'POST /demo/user/search' },
  columns: [{ title: '账号', field: 'userName' }, { title: '密码', field: 'password' }, { type: 'actions', title: '操作' }],
  rowActions: [
    {
      action: 'call',
      label: '重置密码',
      api: 'POST /demo/user/resetPwd',
      params: { userId: '{{id}}' },
      success: '密码已重置',
      result: { title: '新密码', field: 'password', note: '请立即告知用户，关闭后不再显示' },
      form: {
        title: '重置密码',
        defaults: { mode: 'random' },
        schema: {
          type: 'object',
          properties: {
            mode: { type: 'string', title: '方式', 'x-component': 'Radio.Group', enum: [{ label: '随机生成', value: 'random' }, { label: '由管理员设置', value: 'set' }] },
            password: {
              type: 'string',
              title: '新密码',
              'x-component': 'Password',
              'x-validator': [{ required: true, message: '请输入新密码' }],
              'x-reactions': { dependencies: ['mode'], fulfill: { state: { visible: "{{$deps[0] === 'set'}}" } } },
            },
          },
        },
      },
    },
    { action: 'call', label: '生成口令', api: 'GET /demo/user/token', confirm: '确定要为【{{userName}}】生成口令吗？', result: { title: '口令' } },
  ],
} as PageDeclaration;

const SECRET = 'Xy3#kq9LmZ';
function setup(reset: (r: Recorded) => unknown = () => ({ password: SECRET })) {
  return fakeServices((r) =>
    r.path === '/demo/user/resetPwd' ? reset(r) : r.path === '/demo/user/token' ? 'tok-42' : { records: [{ id: 7, userName: 'zhang', password: null }], total: 1 },
  );
}
const open = async (label: string) => {
  await screen.findByText('zhang', {}, { timeout: 5000 });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: label })));
};

describe('an action with a form and a one-time result', () => {
  it('sends the form with the row parameters, shows the new password once with a copy button, and keeps it nowhere', async () => {
    const { services, calls } = setup();
    renderPage(page, services);
    await open('重置密码');
    const dlg = await screen.findByRole('dialog');
    expect(within(dlg).getByText('重置密码')).toBeInTheDocument();
    expect(within(dlg).queryByPlaceholderText('请输入新密码')).toBeNull();
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/user/resetPwd')).toMatchObject({ method: 'POST', params: { userId: 7 }, body: { mode: 'random' } }));
    expect((await screen.findByTestId('revealed-value')).textContent).toContain(SECRET);
    expect(screen.getByText('请立即告知用户，关闭后不再显示')).toBeInTheDocument();
    expect(screen.getByText('新密码')).toBeInTheDocument();
    expect(document.querySelector('[data-testid="revealed-value"] .ant-typography-copy')).not.toBeNull();
    expect(screen.getByText('密码已重置')).toBeInTheDocument();
    const searches = calls.filter((c) => c.path.endsWith('/search')).length;
    expect(searches).toBeGreaterThanOrEqual(2);
    await act(async () => fireEvent.click(screen.getByTestId('reveal-ok')));
    await waitFor(() => expect(screen.queryByTestId('revealed-value')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
    // opening the form again starts empty: nothing of the last answer is held
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '重置密码' })));
    const again = await screen.findByRole('dialog');
    expect(again.textContent).not.toContain(SECRET);
  });

  it('asks for the password when the admin sets it, sends it, and shows nothing when the answer holds none', async () => {
    const { services, calls } = setup(() => null);
    renderPage(page, services);
    await open('重置密码');
    const dlg = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(dlg).getByText('由管理员设置')));
    const pwd = await within(dlg).findByPlaceholderText('请输入新密码');
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    expect(await within(dlg).findByText('请输入新密码', { selector: '.ant-formily-item-error-help, .ant-formily-item-error-help *' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/demo/user/resetPwd')).toBe(false);
    fireEvent.change(pwd, { target: { value: 'Abcd1234!' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/user/resetPwd')?.body).toEqual({ mode: 'set', password: 'Abcd1234!' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByTestId('revealed-value')).toBeNull();
  });

  it('a call without a form confirms, then reveals an answer that is the value itself', async () => {
    const { services, calls } = setup();
    renderPage(page, services);
    await open('生成口令');
    expect(await screen.findByText('确定要为【zhang】生成口令吗？')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^确\s?定$/ })));
    expect((await screen.findByTestId('revealed-value')).textContent).toContain('tok-42');
    expect(calls.find((c) => c.path === '/demo/user/token')).toMatchObject({ method: 'GET', params: { id: 7 } });
    await act(async () => fireEvent.click(screen.getByTestId('reveal-ok')));
    await waitFor(() => expect(screen.queryByTestId('revealed-value')).toBeNull());
    expect(document.body.textContent).not.toContain('tok-42');
  });
});

describe('an action form that loads its initial values first (form.load)', () => {
  const limitPage = {
    id: 'keyDemo',
    title: 'API Key',
    nameField: 'keyName',
    api: { search: 'POST /demo/key/search' },
    columns: [{ title: '名称', field: 'keyName' }, { type: 'actions', title: '操作' }],
    rowActions: [
      {
        action: 'call',
        label: '限流',
        api: 'POST /demo/key/limit/save',
        params: { id: '{{id}}' },
        success: '保存成功',
        form: {
          title: '限流：{{keyName}}',
          load: { api: 'GET /demo/key/limit', params: { id: '{{id}}' } },
          schema: { type: 'object', properties: { ratePerSec: { type: 'number', title: '每秒请求数', 'x-component': 'NumberPicker' }, allowIps: { type: 'string', title: '允许的地址', 'x-component': 'Input.TextArea' } } },
        },
      },
    ],
  } as PageDeclaration;

  it('shows the loaded values, sends the edited ones with the row parameters', async () => {
    const { services, calls } = fakeServices((r) =>
      r.path === '/demo/key/limit' ? { id: 3, ratePerSec: 5, allowIps: '10.0.0.0/8' } : r.path === '/demo/key/limit/save' ? null : { records: [{ id: 3, keyName: 'zhang' }], total: 1 },
    );
    renderPage(limitPage, services);
    await open('限流');
    const dlg = await screen.findByRole('dialog');
    expect(calls.find((c) => c.path === '/demo/key/limit')).toMatchObject({ method: 'GET', params: { id: 3 } });
    // the title is filled from the row
    expect(within(dlg).getByText('限流：zhang')).toBeInTheDocument();
    const area = dlg.querySelector('textarea') as HTMLTextAreaElement;
    expect(area.value).toBe('10.0.0.0/8');
    await act(async () => fireEvent.change(area, { target: { value: '127.0.0.1' } }));
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/key/limit/save')).toMatchObject({ method: 'POST', params: { id: 3 }, body: { ratePerSec: 5, allowIps: '127.0.0.1' } }));
  });

  it('opens no form when the values cannot be loaded', async () => {
    const { services, calls } = fakeServices((r) => {
      if (r.path === '/demo/key/limit') throw new Error('加载失败');
      return { records: [{ id: 3, keyName: 'zhang' }], total: 1 };
    });
    renderPage(limitPage, services);
    await open('限流');
    await waitFor(() => expect(calls.some((c) => c.path === '/demo/key/limit')).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
