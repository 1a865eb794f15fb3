import { launchBrowser, newPage, login } from '../e2e/lib/browser';
const paths = process.argv.slice(3);
const user = process.argv[2];
(async () => {
  const b = await launchBrowser();
  const p = await newPage(b);
  const errs: string[] = [];
  p.on('console', (m) => { if (m.type() === 'error') errs.push(m.text()); });
  p.on('pageerror', (e) => errs.push('PAGEERROR ' + e.message));
  await login(p, 'http://127.0.0.1:8090', user, user === 'admin' ? 'Admin@12345' : 'Demo@12345');
  for (const path of paths) {
    errs.length = 0;
    await p.goto('http://127.0.0.1:8090' + path);
    await p.waitForTimeout(2500);
    const name = `/tmp/walk/${user}${path.replace(/[/?=&]/g, '_')}.png`;
    await p.screenshot({ path: name });
    console.log(path, '->', p.url(), errs.slice(0, 3).join(' | '));
  }
  await b.close();
})();
