// /login: account + password (a local account, or a directory account when LDAP is on), 使用企业账号登录 (OIDC)
// when the admin set it up, and the second step (TOTP) for local accounts that have it. The password is encrypted
// (RSA-OAEP) before it leaves the browser. After success: the `redirect` query when it is an address inside this
// app, else the site root. The password form is hidden when the admin chose so (认证设置), unless ?local=1.
import { LockOutlined, UserOutlined } from '@ant-design/icons';
// Only the form controls come from antd: Card and Typography would pull tabs, menus and dropdowns into
// the one page every visitor loads first (the login route's script budget is 250 KB on the wire).
import { Button, Form, theme } from 'antd';
// the two inputs alone: antd's Input index also brings TextArea, Search and OTP
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { encryptPassword } from '../core/crypto';
import { t } from '../core/messages';
import { get, post, SIGNED_OUT_KEY } from '../core/request';
import { SecondStep, type SecondStepStart } from './SecondStep';
import { ssoErrorText } from '../../common/sso';
import { signIn } from '../core/session';

export interface LoginForm {
  loginType: 'password' | 'ldap';
  area: string;
  mobilePhone: string;
  password: string;
  smsCodeKey?: string;
  smsCode?: string;
}

/** Only same-app paths are followed (never //host or http://...). */
export function safeRedirect(value: string | null): string {
  // (a backslash or a control character after the slash is read as another site by some browsers)
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || [...value].some((c) => c.charCodeAt(0) < 32) || value.startsWith('/login')) return '/';
  return value;
}

/** What the sign-in page offers (GET /uams/options, 认证设置). */
export interface SignInOptions {
  passwordForm: 'everyone' | 'admins';
  ldap: boolean;
  oidc: { label: string } | null;
}

export function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const { token: tk } = theme.useToken();
  const [options, setOptions] = useState<SignInOptions | null>(null);
  const [way, setWay] = useState<'password' | 'ldap'>('password');
  const [second, setSecond] = useState<SecondStepStart | null>(null);
  const [finishing, setFinishing] = useState(() => params.get('sso') === '1');
  useEffect(() => {
    get<SignInOptions>('/uams/options', undefined, { silent: true }).then(setOptions, () => setOptions({ passwordForm: 'everyone', ldap: false, oidc: null }));
  }, []);
  // back from the company's provider: the session token is fetched once with the handoff cookie (never in the address)
  useEffect(() => {
    if (!finishing) return;
    post<{ token: string }>('/uams/sso/finish', undefined, { silent: true }).then(
      ({ token }) => {
        signIn(token);
        navigate(safeRedirect(params.get('redirect')), { replace: true });
      },
      (e: Error) => {
        setSsoError(e.message);
        setFinishing(false);
      },
    );
    // once, on arrival
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // an SSO sign-in that failed comes back here with its reason (never a token in the address)
  const [ssoError, setSsoError] = useState(() => ssoErrorText(params.get('ssoError')));
  const showPassword = options?.passwordForm !== 'admins' || params.get('local') === '1' || !!options?.ldap;
  const done = () => navigate(safeRedirect(params.get('redirect')), { replace: true });
  // why the last session ended, when someone else ended it (账号已停用 …): shown once, then forgotten
  const [why] = useState(() => {
    try {
      const v = sessionStorage.getItem(SIGNED_OUT_KEY);
      sessionStorage.removeItem(SIGNED_OUT_KEY);
      return v;
    } catch {
      return null;
    }
  });

  const submit = async (values: { account: string; password: string }) => {
    setLoading(true);
    setError('');
    try {
      const body: LoginForm = {
        loginType: way,
        area: '+86',
        mobilePhone: values.account.trim(),
        password: await encryptPassword(values.password),
      };
      // silent: the form shows the reason itself, under the button (not twice)
      const answer = await post<{ token?: string; mfa?: 'verify' | 'enroll'; ticket?: string }>('/uams/login', body, { silent: true });
      if (answer.mfa && answer.ticket) return setSecond({ stage: answer.mfa, ticket: answer.ticket });
      signIn(answer.token!);
      done();
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
      <div
        style={{
          width: 'min(400px, calc(100vw - 24px))',
          boxSizing: 'border-box',
          padding: '32px 36px 16px',
          background: tk.colorBgContainer,
          borderRadius: tk.borderRadiusLG,
          boxShadow: '0 8px 32px rgba(0,0,0,.25)',
          fontFamily: tk.fontFamily,
        }}
      >
        <div style={{ textAlign: 'center', marginBottom: 28 }}>
          <span style={{ color: tk.colorTextSecondary, fontSize: tk.fontSize }}>您好，欢迎登录</span>
          <h3 style={{ margin: '6px 0 0', color: tk.colorTextHeading, fontSize: tk.fontSizeHeading3, fontWeight: tk.fontWeightStrong, lineHeight: tk.lineHeightHeading3 }}>数据服务平台</h3>
        </div>
        {why && (
          <Notice kind="warning" testId="signed-out-reason">
            {why}
          </Notice>
        )}
        {ssoError && (
          <Notice kind="error" testId="sso-error">
            {ssoError}
          </Notice>
        )}
        {finishing ? (
          <div role="status" style={{ textAlign: 'center', padding: 24, color: tk.colorTextSecondary }}>
            正在登录…
          </div>
        ) : second ? (
          <SecondStep start={second} onDone={done} onCancel={() => setSecond(null)} />
        ) : (
          <>
            {options?.ldap && (
              <div role="tablist" style={{ display: 'flex', gap: 8, marginBottom: tk.marginMD }}>
                {(['password', 'ldap'] as const).map((w) => (
                  <Button key={w} role="tab" aria-selected={way === w} type={way === w ? 'primary' : 'default'} ghost={way === w} style={{ flex: 1 }} onClick={() => setWay(w)}>
                    {w === 'password' ? '本地账号' : '域账号（LDAP）'}
                  </Button>
                ))}
              </div>
            )}
            {showPassword && (
              <Form layout="vertical" size="large" onFinish={submit} onValuesChange={() => error && setError('')} requiredMark={false}>
                <Form.Item name="account" rules={[{ required: true, whitespace: true, message: t('enterAccount') }]}>
                  <Input prefix={<UserOutlined />} placeholder={way === 'ldap' ? '域账号' : '账号'} autoComplete="username" aria-label="账号" />
                </Form.Item>
                <Form.Item name="password" rules={[{ required: true, message: t('enterPassword') }]}>
                  <Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" aria-label="密码" />
                </Form.Item>
                {error && (
                  <div role="alert" style={{ marginTop: -8, marginBottom: tk.marginMD, color: tk.colorError, fontSize: tk.fontSize }} data-testid="login-error">
                    {error}
                  </div>
                )}
                <Form.Item>
                  <Button type="primary" htmlType="submit" block loading={loading}>
                    登 录
                  </Button>
                </Form.Item>
              </Form>
            )}
            {options?.oidc && (
              <Button
                block
                size="large"
                type={showPassword ? 'default' : 'primary'}
                style={{ marginBottom: tk.marginLG }}
                data-testid="oidc-login"
                onClick={() => window.location.assign(`/api/uams/oidc/start?redirect=${encodeURIComponent(safeRedirect(params.get('redirect')))}`)}
              >
                {options.oidc.label}
              </Button>
            )}
          </>
        )}
      </div>
    </div>
  );
}

/** A box above the form: why the last session ended (warning), why a company sign-in did not finish (error). */
function Notice({ kind, testId, children }: { kind: 'warning' | 'error'; testId: string; children: React.ReactNode }) {
  const { token: tk } = theme.useToken();
  const [border, background] = kind === 'warning' ? [tk.colorWarningBorder, tk.colorWarningBg] : [tk.colorErrorBorder, tk.colorErrorBg];
  return (
    <div
      role={kind === 'warning' ? 'status' : 'alert'}
      data-testid={testId}
      style={{ marginBottom: tk.marginMD, padding: '8px 12px', border: `1px solid ${border}`, background, borderRadius: tk.borderRadius, color: tk.colorText, fontSize: tk.fontSize }}
    >
      {children}
    </div>
  );
}
