// The 404 and 401 pages. A path the user's menu does not route is 404 only when it routes for nobody: the server
// says whether some entry has it (GET /menu/routes/exists, yes or no for that path alone), and then the page is
// 401 无权限访问 — e.g. a developer opening an admin-only page.
import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { get } from '../core/request';

export function ErrorPage({ code, probe = false }: { code: 404 | 401; probe?: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [shown, setShown] = useState<404 | 401 | null>(probe ? null : code);
  useEffect(() => {
    if (!probe) return undefined;
    let alive = true;
    setShown(null);
    get<{ exists: boolean }>('/menu/routes/exists', { moduleType: 'platform', path: pathname }, { silent: true }).then(
      (r) => alive && setShown(r?.exists ? 401 : 404),
      () => alive && setShown(404),
    );
    return () => {
      alive = false;
    };
  }, [probe, pathname]);
  if (shown === null) return <Spin style={{ display: 'block', paddingTop: 120 }} />;
  const text =
    shown === 404
      ? { title: '404', sub: '抱歉，您访问的页面不存在。' }
      : { title: '401 无权限访问', sub: '抱歉，您没有访问该页面的权限，请联系管理员授权或更换账号登录。' };
  return (
    <div style={{ paddingTop: 80 }} data-testid={`error-${shown}`}>
      <Result
        status={shown === 404 ? '404' : '403'}
        title={text.title}
        subTitle={text.sub}
        extra={
          <Button type="primary" onClick={() => navigate('/index')}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
