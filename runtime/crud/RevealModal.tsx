// A value a call answered once (a new key, a reset password): shown with a copy button until closed, then gone —
// the caller keeps it nowhere else.
import { Button, Modal, Typography } from 'antd';

export interface RevealDecl {
  title: string;
  /** the answer's field holding the value; none: the answer is the value */
  field?: string;
  note?: string;
}

/** The value to reveal from a call's answer, or undefined when it holds none. */
export function revealedValue(decl: RevealDecl | undefined, answer: unknown): string | undefined {
  if (!decl) return undefined;
  const v = decl.field ? (answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[decl.field] : undefined) : answer;
  return (typeof v === 'string' || typeof v === 'number') && String(v) !== '' ? String(v) : undefined;
}

export function RevealModal({ decl, value, width, onClose }: { decl: RevealDecl; value: string; width?: number; onClose: () => void }) {
  return (
    <Modal
      open
      title={decl.title}
      width={width ?? 500}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[<Button key="ok" type="primary" onClick={onClose} data-testid="reveal-ok">我已保存</Button>]}
    >
      <Typography.Paragraph type="warning">{decl.note ?? '此值只显示这一次，关闭后无法再次查看，请立即复制保存。'}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: value, tooltips: ['复制', '已复制'] }} code data-testid="revealed-value" style={{ wordBreak: 'break-all' }}>
        {value}
      </Typography.Paragraph>
    </Modal>
  );
}
