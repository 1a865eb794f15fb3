import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { useField, useForm } from '@formily/react';
import { useCrudServices } from '../services';
import { parseCall } from '../template';

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  placeholder?: string;
  /** e.g. "GET /gemini/datasource/encrypt" */
  api?: string;
  /** query parameter carrying the plain password, declared beside the api */
  param: string;
  maxLength?: number;
}

/**
 * The dialog's other scalar values, sent along with the password (as the dialog's test call sends the form):
 * the server binds the ciphertext to the record being edited (its key; none in new / copy) and to the target
 * the dialog names (where the password is sent, and as whom), so the value works only there. The server picks what it needs.
 */
function dialogContext(values: Record<string, unknown> | undefined, self: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    if (k === self) continue;
    if ((typeof v === 'string' && v !== '' && v.length <= 500) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/** Password input with an encrypt button that swaps the plain text for the server's ciphertext. */
export function EncryptPassword({ value, onChange, disabled, placeholder, api, param, maxLength }: Props) {
  const services = useCrudServices();
  const form = useForm() as { values?: Record<string, unknown> } | undefined;
  const self = useField() as { props?: { name?: unknown } } | undefined;
  const [busy, setBusy] = useState(false);
  const encrypt = async () => {
    if (!api || !value) return;
    setBusy(true);
    try {
      const { method, path } = parseCall(api);
      const context = dialogContext(form?.values, typeof self?.props?.name === 'string' ? self.props.name : undefined);
      const cipher = await services.request<string>(method, path, { params: { ...context, [param]: value } });
      if (typeof cipher === 'string') onChange?.(cipher);
    } catch {
      // the request layer already showed the error
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input.Password
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        disabled={disabled}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="new-password"
      />
      {api && (
        <Button onClick={encrypt} loading={busy} disabled={disabled || !value} data-testid="encrypt-btn">
          加密
        </Button>
      )}
    </Space.Compact>
  );
}
