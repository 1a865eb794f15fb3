// 个人信息 › 双因素认证: the signed-in user's own TOTP — set it up (QR code, key, a code to prove it, then the recovery
// codes once), turn it off (a code; refused when the role requires it), new recovery codes (a code).
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Input, Modal, Space, Tag, Typography } from 'antd';
import { get, post } from '../../core/request';

interface Status {
  enabled: boolean;
  required: boolean;
  recoveryLeft: number;
  /** an account of the company's OpenID provider: its second factor is the provider's */
  provider: boolean;
}
interface Enrolment {
  secret: string;
  qr: string;
}

type Dialog = { kind: 'setup'; enrolment: Enrolment } | { kind: 'disable' } | { kind: 'recovery' } | { kind: 'codes'; codes: string[] };

export function TwoFactor() {
  const [status, setStatus] = useState<Status | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const load = () => get<Status>('/uams/totp').then(setStatus, () => undefined);
  useEffect(() => {
    void load();
  }, []);

  const open = (d: Dialog) => {
    setCode('');
    setError('');
    setDialog(d);
  };
  const start = async () => {
    setBusy(true);
    try {
      open({ kind: 'setup', enrolment: await post<Enrolment>('/uams/totp/setup') });
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    if (!dialog || dialog.kind === 'codes') return;
    if (!code.trim()) return setError('请输入动态验证码');
    setBusy(true);
    setError('');
    const path = dialog.kind === 'setup' ? '/uams/totp/enable' : dialog.kind === 'disable' ? '/uams/totp/disable' : '/uams/totp/recovery';
    try {
      const answer = await post<{ recoveryCodes?: string[] } | null>(path, { code: code.trim() }, { silent: true });
      if (answer?.recoveryCodes) open({ kind: 'codes', codes: answer.recoveryCodes });
      else setDialog(null);
      void load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const asking = dialog && dialog.kind !== 'codes';
  return (
    <Card title="双因素认证" style={{ maxWidth: 720, marginTop: 16 }} data-testid="two-factor">
      {status?.provider && <Typography.Paragraph type="secondary">您使用企业账号登录，双因素认证由企业身份提供方负责。</Typography.Paragraph>}
      {status && !status.provider && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <div>
            状态：{status.enabled ? <Tag color="success">已启用</Tag> : <Tag>未启用</Tag>}
            {status.required && <Tag color="warning">您的角色要求使用</Tag>}
            {status.enabled && <Typography.Text type="secondary">剩余恢复码 {status.recoveryLeft} 个</Typography.Text>}
          </div>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            启用后，用密码登录时还需输入身份验证器（如 Google Authenticator、Microsoft Authenticator）显示的 6 位动态验证码。
          </Typography.Paragraph>
          <Space wrap>
            {!status.enabled && (
              <Button type="primary" onClick={start} loading={busy}>
                启用双因素认证
              </Button>
            )}
            {status.enabled && <Button onClick={() => open({ kind: 'recovery' })}>重新生成恢复码</Button>}
            {status.enabled && !status.required && (
              <Button danger onClick={() => open({ kind: 'disable' })}>
                关闭双因素认证
              </Button>
            )}
          </Space>
        </Space>
      )}
      <Modal
        open={!!asking}
        title={dialog?.kind === 'setup' ? '绑定身份验证器' : dialog?.kind === 'disable' ? '关闭双因素认证' : '重新生成恢复码'}
        onCancel={() => setDialog(null)}
        onOk={confirm}
        okText="确定"
        cancelText="取消"
        confirmLoading={busy}
        okButtonProps={{ danger: dialog?.kind === 'disable' }}
        maskClosable={false}
        destroyOnHidden
      >
        {dialog?.kind === 'setup' && (
          <div style={{ textAlign: 'center', marginBottom: 12 }}>
            <Typography.Paragraph>用身份验证器扫描二维码，或手动输入密钥，然后输入应用显示的 6 位动态验证码。</Typography.Paragraph>
            <img src={dialog.enrolment.qr} width={180} height={180} alt="绑定二维码" />
            <div style={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="totp-secret">
              {dialog.enrolment.secret}
            </div>
          </div>
        )}
        {dialog?.kind === 'recovery' && <Typography.Paragraph>旧的恢复码将全部作废。请输入当前的动态验证码确认。</Typography.Paragraph>}
        {dialog?.kind === 'disable' && <Typography.Paragraph>关闭后只凭密码即可登录。请输入当前的动态验证码确认。</Typography.Paragraph>}
        <Input value={code} onChange={(e) => setCode(e.target.value)} onPressEnter={confirm} placeholder="6 位动态验证码" maxLength={20} autoComplete="one-time-code" aria-label="动态验证码" />
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
      </Modal>
      <Modal
        open={dialog?.kind === 'codes'}
        title="恢复码"
        onCancel={() => setDialog(null)}
        footer={
          <Button type="primary" onClick={() => setDialog(null)}>
            我已保存
          </Button>
        }
        maskClosable={false}
      >
        <Typography.Paragraph>请把恢复码保存在安全的地方：每个恢复码可代替动态验证码登录一次。恢复码只显示这一次。</Typography.Paragraph>
        <pre data-testid="recovery-codes" style={{ columns: 2, fontSize: 15, userSelect: 'all' }}>
          {dialog?.kind === 'codes' ? dialog.codes.join('\n') : ''}
        </pre>
      </Modal>
    </Card>
  );
}
