import { launchBrowser, newPage, login } from '../e2e/lib/browser';
const base = 'http://127.0.0.1:8090';
(async () => {
  const b = await launchBrowser();
  const p = await newPage(b);
  const errs: string[] = [];
  p.on('pageerror', (e) => errs.push('PAGEERROR ' + e.message));
  // wrong password: error once
  await p.goto(base + '/login');
  await p.getByPlaceholder('账号').fill('admin');
  await p.getByPlaceholder('密码').fill('nope');
  await p.getByPlaceholder('密码').press('Enter');
  await p.getByTestId('login-error').waitFor();
  await p.waitForTimeout(300);
  await p.screenshot({ path: '/tmp/walk/w-login-error.png' });
  await login(p, base, 'admin', 'Admin@12345');
  // API design list: side tree folded and unfolded
  await p.goto(base + '/apimgr/design');
  await p.getByRole('button', { name: '收起侧栏' }).click();
  await p.waitForTimeout(500);
  await p.screenshot({ path: '/tmp/walk/w-tree-folded.png' });
  await p.getByRole('button', { name: '展开侧栏' }).click();
  await p.waitForTimeout(500);
  await p.screenshot({ path: '/tmp/walk/w-tree-open.png' });
  // query support: many queries, search, paging, script dialog
  await p.goto(base + '/data/query');
  await p.waitForTimeout(1500);
  await p.screenshot({ path: '/tmp/walk/w-query-list.png' });
  await p.getByText('q01', { exact: true }).click();
  await p.waitForTimeout(1500);
  await p.getByRole('button', { name: '放大编辑' }).first().click();
  await p.waitForTimeout(1500);
  await p.screenshot({ path: '/tmp/walk/w-script-dialog.png' });
  await p.getByRole('button', { name: /完\s?成/ }).click();
  await p.getByRole('button', { name: /保\s?存/ }).click();
  await p.waitForTimeout(500);
  await p.screenshot({ path: '/tmp/walk/w-confirm-save.png' });
  await p.keyboard.press('Escape');
  // new form dialog
  await p.goto(base + '/datav/form');
  await p.getByRole('button', { name: '新建表单' }).click();
  await p.waitForTimeout(800);
  await p.screenshot({ path: '/tmp/walk/w-new-form.png' });
  await p.keyboard.press('Escape');
  // embedded page elsewhere
  await p.goto(base + '/datav/embedded?src=' + encodeURIComponent('https://example.com/') + '&authentication=1');
  await p.waitForTimeout(1000);
  await p.screenshot({ path: '/tmp/walk/w-embedded.png' });
  console.log('errors:', errs.join(' | '));
  await b.close();
})();
