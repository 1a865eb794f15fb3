// /login: account + password. The password is encrypted (RSA-OAEP) before it leaves the browser.
// After success: the `redirect` query when it is an address inside this app, else the site root.
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { encryptPassword } from '../core/crypto';
import { t } from '../core/messages';
import { post } from '../core/request';
import { signIn } from '../core/session';

export interface LoginForm {
  loginType: 'password';
  area: string;
  mobilePhone: string;
  password: string;
  smsCodeKey?: string;
  smsCode?: string;
}

/** Only same-app paths are followed (never //host or http://...). */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}

export function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');

  const submit = async (values: { account: string; password: string }) => {
    setLoading(true);
    setError('');
    try {
      const body: LoginForm = {
        loginType: 'password',
        area: '+86',
        mobilePhone: values.account.trim(),
        password: await encryptPassword(values.password),
      };
      const { token } = await post<{ token: string }>('/uams/login', body);
      signIn(token);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #0b1e3f 0%, #1d3b72 55%, #2d5fa8 100%)',
      }}
    >
      <Card style={{ width: 400, boxShadow: '0 8px 32px rgba(0,0,0,.25)' }} styles={{ body: { padding: '32px 36px 16px' } }}>
        <div style={{ textAlign: 'center', marginBottom: 28 }}>
          <Typography.Text type="secondary">您好，欢迎登录</Typography.Text>
          <Typography.Title level={3} style={{ margin: '6px 0 0' }}>
            数据服务平台
          </Typography.Title>
        </div>
        <Form layout="vertical" size="large" onFinish={submit} onValuesChange={() => error && setError('')} requiredMark={false}>
          <Form.Item name="account" rules={[{ required: true, whitespace: true, message: t('enterAccount') }]}>
            <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" aria-label="账号" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t('enterPassword') }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" aria-label="密码" />
          </Form.Item>
          {error && (
            <Typography.Paragraph type="danger" style={{ marginTop: -8 }} data-testid="login-error">
              {error}
            </Typography.Paragraph>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading}>
              登 录
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
