// The sign-in's second step (issue 38 item 4): the six-digit code from an authenticator app, or a recovery code; for
// an account whose role must have one and has none, the setup first (QR code and key, then a code to prove it),
// and after the setup the recovery codes, shown once. The session starts only after the code.
import { Button, Form, theme } from 'antd';
import Input from 'antd/es/input/Input';
import { useEffect, useState } from 'react';
import { post } from '../core/request';
import { signIn } from '../core/session';

export interface SecondStepStart {
  stage: 'verify' | 'enroll';
  ticket: string;
}

interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

export function SecondStep({ start, onDone, onCancel }: { start: SecondStepStart; onDone(): void; onCancel(): void }) {
  const { token: tk } = theme.useToken();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  useEffect(() => {
    if (start.stage !== 'enroll') return;
    post<Enrolment>('/uams/login/totp/setup', { ticket: start.ticket }, { silent: true }).then(setEnrolment, (e: Error) => setError(e.message));
  }, [start]);

  const submit = async (v: { code: string }) => {
    setLoading(true);
    setError('');
    try {
      const answer = await post<{ token: string; recoveryCodes?: string[] }>('/uams/login/totp', { ticket: start.ticket, code: v.code.trim() }, { silent: true });
      signIn(answer.token);
      if (answer.recoveryCodes?.length) setCodes(answer.recoveryCodes);
      else onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };

  const text = { color: tk.colorTextSecondary, fontSize: tk.fontSize, margin: `0 0 ${tk.marginSM}px` };
  if (codes) {
    return (
      <div data-testid="recovery-codes">
        <p style={{ ...text, color: tk.colorText }}>双因素认证已启用。请把下面的恢复码保存在安全的地方：手机丢失时，每个恢复码可代替动态验证码登录一次。恢复码只显示这一次。</p>
        <pre style={{ background: tk.colorFillTertiary, padding: 12, borderRadius: tk.borderRadius, columns: 2, fontSize: 15, userSelect: 'all' }}>{codes.join('\n')}</pre>
        <Button type="primary" block size="large" onClick={onDone} style={{ marginBottom: tk.marginLG }}>
          我已保存，继续
        </Button>
      </div>
    );
  }
  return (
    <div data-testid="second-step">
      {start.stage === 'enroll' ? (
        <>
          <p style={text}>您的角色要求使用双因素认证。请用身份验证器（如 Google Authenticator、Microsoft Authenticator）扫描二维码，或手动输入密钥，然后输入应用显示的 6 位动态验证码。</p>
          {enrolment && (
            <div style={{ textAlign: 'center', marginBottom: tk.marginSM }}>
              <img src={enrolment.qr} width={180} height={180} alt="绑定二维码" />
              <div style={{ fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-all' }} data-testid="totp-secret">
                {enrolment.secret}
              </div>
            </div>
          )}
        </>
      ) : (
        <p style={text}>请输入身份验证器中的 6 位动态验证码；手机不在身边时可输入一个恢复码。</p>
      )}
      <Form layout="vertical" size="large" onFinish={submit} onValuesChange={() => error && setError('')} requiredMark={false}>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '请输入动态验证码' }]}>
          <Input
            placeholder={start.stage === 'enroll' ? '6 位动态验证码' : '6 位动态验证码或恢复码'}
            autoComplete="one-time-code"
            inputMode={start.stage === 'enroll' ? 'numeric' : 'text'}
            aria-label="动态验证码"
            maxLength={20}
            autoFocus
          />
        </Form.Item>
        {error && (
          <div role="alert" style={{ marginTop: -8, marginBottom: tk.marginMD, color: tk.colorError, fontSize: tk.fontSize }} data-testid="login-error">
            {error}
          </div>
        )}
        <Form.Item style={{ marginBottom: tk.marginSM }}>
          <Button type="primary" htmlType="submit" block loading={loading}>
            验 证
          </Button>
        </Form.Item>
        <Form.Item>
          <Button type="link" block onClick={onCancel}>
            返回重新登录
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
