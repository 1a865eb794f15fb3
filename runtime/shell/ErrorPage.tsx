// The 404 and 401 pages.
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

export function ErrorPage({ code }: { code: 404 | 401 }) {
  const navigate = useNavigate();
  const text =
    code === 404
      ? { title: '404', sub: '抱歉，您访问的页面不存在。' }
      : { title: '401', sub: '抱歉，您没有访问权限，请联系管理员或更换账号登录。' };
  return (
    <div style={{ paddingTop: 80 }}>
      <Result
        status={code === 404 ? '404' : '403'}
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
