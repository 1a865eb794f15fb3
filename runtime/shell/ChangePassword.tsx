// The forced password change (issue 21): a user whose password an admin set (a new account, a reset) sees only
// this until they choose their own; the server refuses every other call meanwhile. The policy is the one the
// server keeps (common/password-policy.ts); both passwords leave the browser encrypted, like the sign-in's.
import { Button, Form, Input, Typography, theme } from 'antd';
import { useState } from 'react';
import { PASSWORD_HINT, passwordFault } from '../../common/password-policy';
import { encryptPassword } from '../core/crypto';
import { post } from '../core/request';
import { loadSession, logout, setToken, useSession } from '../core/session';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export function ChangePassword() {
  const { user } = useSession();
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const { token: tk } = theme.useToken();

  const submit = async (v: Values) => {
    setLoading(true);
    setError('');
    try {
      const { token } = await post<{ token: string }>(
        '/uams/user/password',
        { oldPassword: await encryptPassword(v.oldPassword), newPassword: await encryptPassword(v.newPassword) },
        { silent: true },
      );
      setToken(token);
      await loadSession();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: tk.colorBgLayout, padding: 16 }}>
      <div style={{ width: 420, maxWidth: '100%', boxSizing: 'border-box', padding: '28px 32px 12px', background: tk.colorBgContainer, borderRadius: tk.borderRadiusLG, boxShadow: tk.boxShadowSecondary }} data-testid="change-password">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          请修改初始密码
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          {user?.nickName || user?.username}，你的密码由管理员设置。为了账号安全，请先设置自己的密码，之后才能使用系统。
        </Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={loading}>
          <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
            <Input.Password autoComplete="current-password" placeholder="管理员告知的密码" />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label="新密码"
            extra={PASSWORD_HINT}
            rules={[
              { required: true, message: '请输入新密码' },
              { validator: async (_, value: string) => { const fault = value ? passwordFault(value, user?.username) : null; if (fault) throw new Error(fault); } },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label="确认新密码"
            dependencies={['newPassword']}
            rules={[
              { required: true, message: '请再次输入新密码' },
              ({ getFieldValue }) => ({ validator: async (_, value: string) => { if (value && value !== getFieldValue('newPassword')) throw new Error('两次输入的密码不一致'); } }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          {error && (
            <Typography.Paragraph type="danger" role="alert">
              {error}
            </Typography.Paragraph>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading}>
              修改密码
            </Button>
            <Button type="link" block onClick={() => void logout()} style={{ marginTop: 8 }}>
              退出登录
            </Button>
          </Form.Item>
        </Form>
      </div>
    </div>
  );
}
